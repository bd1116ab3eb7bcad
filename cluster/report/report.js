(function () {
  'use strict';
  // The page's tables are drawn here from the report's JSON (the layout
  // of portlab cluster's JSON report), which the page carries gzip-
  // compressed and base64-encoded in script#report-data: a page of rows at
  // a time, a class's forms when the class is opened.
  var doc = document;
  var $ = function (id) { return doc.getElementById(id); };
  var each = function (list, fn) { Array.prototype.forEach.call(list, fn); };
  var ESC = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
  function esc(s) { return String(s === null || s === undefined ? '' : s).replace(/[&<>"']/g, function (c) { return ESC[c]; }); }
  // num, pct and the measurement names are those of the Go side.
  function num(v) {
    if (v === null || v === undefined) { return '—'; }
    var s = Number(v).toFixed(4).replace(/0+$/, '').replace(/\.$/, '');
    return s === '-0' ? '0' : s;
  }
  function pct(v) {
    if (v >= 10) { return (v + 1).toFixed(0) + '×'; }
    if (v >= 0.1) { return (v * 100).toFixed(0) + ' %'; }
    return (v * 100).toFixed(1) + ' %';
  }
  function signed(v) { return v > 0 ? '+' + num(v) : num(v); }
  function nums(vs) { return (vs || []).map(num).join(', '); }
  function pnums(vs) { return (vs || []).map(function (v) { return v === null ? '—' : num(v); }).join(', '); }
  function measureName(k) { return k === 'inverse_throughput' ? 'reciprocal throughput' : k === 'NumMicroOps' ? 'uops' : k; }
  function shortMeasure(k) { return k === 'inverse_throughput' ? 'recip. throughput' : measureName(k); }
  function fieldOf(c) {
    var k = String(c.key).toLowerCase();
    if (k === 'latency') { return 'latency'; }
    if (k === 'inverse_throughput' || k === 'throughput') { return 'throughput'; }
    if (k === 'nummicroops' || k === 'uops') { return 'uops'; }
    return '';
  }
  // A long list in a cell: the first n, the rest behind a disclosure.
  function longList(list, n, sep) {
    list = list || [];
    if (list.length <= n) { return esc(list.join(sep)); }
    return esc(list.slice(0, n).join(sep)) + ' <details class="more"><summary>+' + (list.length - n) + ' more</summary>' +
      esc(list.slice(n).join(sep)) + '</details>';
  }

  // makeTable draws rows into host a page at a time. o.cols are the
  // columns: h (header), n (numeric), key(row) (sort key), td(row) (the
  // cell's HTML, <td> included). o.text(row) is what the search box
  // matches, o.pass(row) an extra filter, o.tr(row) the row's attributes.
  function makeTable(host, o) {
    var size = o.pageSize || 50;
    var t = { rows: o.rows, view: o.rows, page: 0, size: size, sortCol: o.sortCol === undefined ? -1 : o.sortCol, sortDir: o.sortDir || 0 };
    host.removeAttribute('data-loading');
    var extra = host.querySelector('.toolbar.extra');
    var old = host.querySelector('.loading');
    if (old) { old.remove(); }
    var searchable = o.rows.length > size || o.search;
    var bar = extra || doc.createElement('div');
    bar.className = 'toolbar';
    var box = null;
    if (searchable) {
      box = doc.createElement('input');
      box.type = 'search';
      box.placeholder = o.placeholder || 'Filter…';
      box.setAttribute('aria-label', 'filter ' + (o.name || 'rows'));
      box.setAttribute('data-filter', '');
      bar.insertBefore(box, bar.firstChild);
    }
    if (!extra && searchable) { host.appendChild(bar); }
    var wrap = doc.createElement('div');
    wrap.className = 'tablewrap';
    var table = doc.createElement('table');
    table.className = 'data sortable' + (o.tableClass ? ' ' + o.tableClass : '');
    if (o.id) { table.id = o.id; }
    var head = '<thead><tr>';
    o.cols.forEach(function (c, i) {
      head += '<th tabindex="0"' + (c.n ? ' class="n"' : '') + (i === t.sortCol ? ' aria-sort="' + (t.sortDir > 0 ? 'ascending' : 'descending') + '"' : '') +
        ' title="sort by ' + esc(c.h.toLowerCase()) + '">' + esc(c.h) + '</th>';
    });
    table.innerHTML = head + '</tr></thead><tbody></tbody>';
    wrap.appendChild(table);
    host.appendChild(wrap);
    var pager = doc.createElement('div');
    pager.className = 'pager';
    host.appendChild(pager);
    t.table = table;

    function text(r) {
      if (r._t === undefined) { r._t = o.text(r).toLowerCase(); }
      return r._t;
    }
    t.filter = function () {
      var words = box ? box.value.trim().toLowerCase().split(/\s+/).filter(Boolean) : [];
      t.view = t.rows.filter(function (r) {
        return (!o.pass || o.pass(r)) && words.every(function (w) { return text(r).indexOf(w) >= 0; });
      });
      t.page = 0;
      t.draw();
    };
    t.sort = function (col, dir) {
      var c = o.cols[col];
      var keyed = t.rows.map(function (r, i) { return { r: r, k: c.key(r), i: i }; });
      keyed.sort(function (a, b) {
        var x = a.k, y = b.k, d;
        if (typeof x === 'number' && typeof y === 'number') {
          d = x === y ? 0 : (x < y ? -1 : 1);
        } else {
          d = String(x).localeCompare(String(y), undefined, { numeric: true });
        }
        return d !== 0 ? dir * d : a.i - b.i;
      });
      t.rows = keyed.map(function (k) { return k.r; });
      t.sortCol = col;
      t.sortDir = dir;
      each(table.tHead.rows[0].cells, function (th, i) {
        if (i === col) { th.setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending'); } else { th.removeAttribute('aria-sort'); }
      });
      t.filter();
    };
    t.draw = function () {
      var pages = Math.max(1, Math.ceil(t.view.length / t.size));
      t.page = Math.min(Math.max(0, t.page), pages - 1);
      var from = t.page * t.size, to = Math.min(t.view.length, from + t.size);
      var html = '';
      for (var i = from; i < to; i++) {
        var r = t.view[i];
        html += '<tr' + (o.tr ? o.tr(r) : '') + '>' + o.cols.map(function (c) { return c.td(r); }).join('') + '</tr>';
      }
      table.tBodies[0].innerHTML = html;
      if (t.rows.length <= t.size && !box) {
        pager.innerHTML = '';
        return;
      }
      var what = to > from ? 'rows ' + (from + 1) + '–' + to + ' of ' + t.view.length : 'no rows';
      if (t.view.length !== t.rows.length) { what += ' shown (' + t.rows.length + ' in all)'; }
      pager.innerHTML = (pages > 1 ? '<button type="button" data-go="first" aria-label="first page">«</button>' +
        '<button type="button" data-go="prev" aria-label="previous page">‹</button>' +
        '<span class="pg">page ' + (t.page + 1) + ' of ' + pages + '</span>' +
        '<button type="button" data-go="next" aria-label="next page">›</button>' +
        '<button type="button" data-go="last" aria-label="last page">»</button>' : '') +
        '<span class="shown" data-count>' + what + '</span>' +
        '<label>· show <select data-size>' + [25, 50, 200, 1000].map(function (n) {
          return '<option' + (n === t.size ? ' selected' : '') + '>' + n + '</option>';
        }).join('') + '</select> a page</label>';
      each(pager.querySelectorAll('button'), function (b) {
        var go = b.getAttribute('data-go');
        b.disabled = (go === 'first' || go === 'prev') ? t.page === 0 : t.page === pages - 1;
      });
    };
    // show goes to the page holding the first row pred accepts.
    t.show = function (pred) {
      for (var i = 0; i < t.view.length; i++) {
        if (pred(t.view[i])) { t.page = Math.floor(i / t.size); t.draw(); return true; }
      }
      return false;
    };
    pager.addEventListener('click', function (e) {
      var go = e.target.getAttribute && e.target.getAttribute('data-go');
      if (!go) { return; }
      var pages = Math.max(1, Math.ceil(t.view.length / t.size));
      t.page = go === 'first' ? 0 : go === 'prev' ? t.page - 1 : go === 'next' ? t.page + 1 : pages - 1;
      t.draw();
    });
    pager.addEventListener('change', function (e) {
      if (e.target.hasAttribute('data-size')) {
        var first = t.page * t.size;
        t.size = parseInt(e.target.value, 10);
        t.page = Math.floor(first / t.size);
        t.draw();
      }
    });
    each(table.tHead.rows[0].cells, function (th, i) {
      var go = function () {
        var cur = th.getAttribute('aria-sort');
        var dir = cur === 'descending' ? 1 : cur === 'ascending' ? -1 : (o.cols[i].n ? -1 : 1);
        t.sort(i, dir);
      };
      th.addEventListener('click', go);
      th.addEventListener('keydown', function (e) { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); go(); } });
    });
    if (box) { box.addEventListener('input', t.filter); }
    if (extra) { each(extra.querySelectorAll('select,input[type=checkbox]'), function (el) { el.addEventListener('change', t.filter); }); }
    t.filter();
    return t;
  }

  // Numeric and text cells.
  function tdn(v, text, attrs) { return '<td class="n"' + (attrs || '') + '>' + (text === undefined ? esc(num(v)) : text) + '</td>'; }
  function td(html, cls, title) { return '<td' + (cls ? ' class="' + cls + '"' : '') + (title ? ' title="' + esc(title) + '"' : '') + '>' + html + '</td>'; }
  function sortNum(v) { return typeof v === 'number' && isFinite(v) ? v : -Infinity; }

  // The cells of a form's measured and model values, as the form tables
  // show them: every comparison of a kind, mismatches marked.
  function formCells(f) {
    var lat = [], tp = [], uops = [], others = [];
    (f.measurements || []).forEach(function (c) {
      var fld = fieldOf(c);
      if (fld === 'throughput') { tp.push(c); } else if (fld === 'uops') { uops.push(c); } else if (fld === '') {
        others.push(c.key + ' ' + num(c.measured) + ' (model ' + (c.model === null ? '—' : num(c.model)) + ')');
      } else { lat.push(c); }
    });
    var ids = [];
    function set(cs) {
      var meas = { text: '', sort: -Infinity, cls: '', title: '' }, model = { text: '', sort: -Infinity, cls: '', title: '' };
      if (!cs.length) { return [meas, model]; }
      var mt = [], mo = [], bad = false, good = false;
      cs.forEach(function (c) {
        var t = num(c.measured);
        if (c.points > 1 && c.max - c.min > 0) { t += ' [' + num(c.min) + '–' + num(c.max) + ']'; }
        if (c.config && cs.length > 1) { t = c.config + ': ' + t; }
        if (c.noise_only) { t += ' ⁿ'; }
        if (c.unstable) { t += ' ⚠'; }
        mt.push(t);
        if (c.model !== null && c.model !== undefined) {
          mo.push(num(c.model));
          if (c.mismatch) { bad = true; } else { good = true; }
        } else { mo.push('—'); }
        (c.clusters || []).forEach(function (id) { if (ids.indexOf(id) < 0) { ids.push(id); } });
      });
      meas.text = mt.join('\n');
      model.text = mo.join('\n');
      meas.sort = cs[0].measured;
      if (cs[0].model !== null && cs[0].model !== undefined) { model.sort = cs[0].model; }
      if (bad) {
        meas.cls = model.cls = 'bad';
        meas.title = 'off by ' + num(cs[0].abs_error) + ' cycles (' + pct(cs[0].relative_error) + ')';
      } else if (good) { meas.cls = model.cls = 'good'; }
      if (cs[0].noise_only) { meas.title = (meas.title + ' measured by noise points only').trim(); }
      if (cs[0].unstable) { meas.title = (meas.title + ' unstable: the median of points in several clusters').trim(); }
      return [meas, model];
    }
    var l = set(lat), p = set(tp), u = set(uops);
    var m = f.model;
    if (m) {
      var nm = function (v) { return { text: num(v), sort: v, cls: 'muted', title: 'not measured' }; };
      if (!lat.length) { l[1] = nm(m.latency); }
      if (!tp.length && m.throughput > 0) { p[1] = nm(m.throughput); }
      if (!uops.length && m.uops > 0) { u[1] = nm(m.uops); }
    }
    return { cells: [l[0], l[1], p[0], p[1], u[0], u[1]], others: others, clusters: ids.join(' ') };
  }
  function cellTd(c) {
    return '<td class="n' + (c.cls ? ' ' + c.cls : '') + '"' + (c.title ? ' title="' + esc(c.title) + '"' : '') + '>' + esc(c.text) + '</td>';
  }
  function formView(f) {
    if (!f._v) { f._v = formCells(f); }
    return f._v;
  }
  var formHeads = ['Latency', 'model', 'Recip. thr.', 'model', 'Uops', 'model'];
  function formTable(host, forms, id) {
    var cols = [{ h: 'Form', key: function (f) { return f.form; }, td: function (f) {
      var v = formView(f);
      return td(esc(f.form) + (f.opcodes && f.opcodes.length ? '<div class="muted small">' + esc(f.opcodes.join(', ')) + '</div>' : '') +
        v.others.map(function (s) { return '<div class="muted small">' + esc(s) + '</div>'; }).join(''), 'form');
    } }];
    formHeads.forEach(function (h, i) {
      cols.push({ h: h, n: true, key: function (f) { return sortNum(formView(f).cells[i].sort); }, td: function (f) { return cellTd(formView(f).cells[i]); } });
    });
    cols.push({ h: 'Ports (model)', key: function (f) { return f.model ? f.model.ports : ''; }, td: function (f) {
      var p = f.model ? f.model.ports : '';
      return td(esc(p), 'mono small clip', p);
    } });
    cols.push({ h: 'Cluster', key: function (f) { return formView(f).clusters; }, td: function (f) { return td(esc(formView(f).clusters), 'small'); } });
    cols.push({ h: 'Snippet', key: function (f) { return f.snippet ? 1 : 0; }, td: function (f) {
      if (!f.snippet && !(f.points && f.points.length)) { return '<td></td>'; }
      return '<td><details class="snip"><summary>asm</summary>' + (f.snippet ? '<pre>' + esc(f.snippet) + '</pre>' : '') +
        (f.points && f.points.length ? '<div class="muted small">measured by ' + longList(f.points, 6, ', ') + '</div>' : '') + '</details></td>';
    } });
    return makeTable(host, { id: id, name: 'forms', rows: forms, cols: cols, tableClass: 'forms', pageSize: 25, placeholder: 'Filter forms…',
      text: function (f) { return f.form + ' ' + (f.opcodes || []).join(' ') + ' ' + (f.model ? f.model.ports : ''); },
      tr: function (f) { return f.mismatch ? ' class="mm"' : ''; } });
  }

  // A class card: its summary at once, its forms when opened.
  function classCard(cr, anchor, rank, ok) {
    var d = doc.createElement('details');
    d.className = 'klass' + (ok ? ' okk' : '');
    d.id = anchor;
    d.innerHTML = '<summary>' + (rank ? '<span class="rank">#' + rank + '</span>' : '') + '<span class="kname">' + esc(cr['class']) + '</span>' +
      (cr.named_class ? '' : '<span class="tag" title="entries without a class name, grouped because the model gives them the same values">same model values</span>') +
      (ok ? '<span class="badge okb">ok</span><span class="muted small">' + cr.forms.length + ' form(s)</span>'
        : '<span class="badge" title="relative error of the worst measurement">' + esc(pct(cr.relative_error)) + '</span><span class="muted small">' +
          cr.forms.filter(function (f) { return f.mismatch; }).length + ' of ' + cr.forms.length + ' form(s) off</span>' +
          '<span class="worst">' + esc(cr.worst || '') + '</span>') +
      '</summary><div class="kbody"></div>';
    var drawn = false;
    d.draw = function () {
      if (drawn) { return; }
      drawn = true;
      var body = d.querySelector('.kbody');
      var m = cr.model, html = '';
      if (m) {
        html += '<p class="modelline">Model: latency <b>' + num(m.latency) + '</b> · reciprocal throughput <b>' + num(m.throughput) + '</b> · uops <b>' + num(m.uops) +
          '</b> · ports <code>' + esc(m.ports || '—') + '</code>' + (m.source ? ' · <span class="muted">' + esc(m.source) + '</span>' : '') + '</p>';
      } else {
        html += '<p class="modelline muted">The class\'s entries differ; each form is compared with its own entry.</p>';
      }
      body.innerHTML = html + '<div class="formtable"></div>';
      formTable(body.querySelector('.formtable'), cr.forms);
      if (cr.clusters && cr.clusters.length) {
        var x = doc.createElement('details');
        x.className = 'exeg';
        var rows = cr.clusters.map(function (cc) {
          return '<tr><td>' + esc(cc.cluster) + (cc.unstable ? ' ⚠' : '') + '</td><td>' + esc((cc.keys || []).join(', ')) + '</td><td class="mono">' +
            longList(cc.forms, 8, ', ') + '</td><td class="n">' + cc.points + '</td><td class="n">' + esc(nums(cc.centroid)) + '</td><td class="n">' +
            esc(nums(cc.min)) + ' – ' + esc(nums(cc.max)) + '</td><td class="n">' + esc(pnums(cc.model)) + '</td><td class="n">' + esc(num(cc.distance)) +
            '</td><td class="' + (cc.match ? 'good">agrees' : 'bad">off') + '</td></tr>';
        }).join('');
        x.innerHTML = '<summary>By cluster (llvm-exegesis\'s view: each cluster\'s centroid against the model)</summary><div class="tablewrap"><table class="data small">' +
          '<thead><tr><th>Cluster</th><th>Measurement</th><th>Forms</th><th class="n">Points</th><th class="n">Centroid</th><th class="n">Range</th><th class="n">Model</th><th class="n">Distance</th><th>Verdict</th></tr></thead><tbody>' +
          rows + '</tbody></table></div>';
        body.appendChild(x);
      }
      if (cr.unmeasured_forms && cr.unmeasured_forms.length) {
        var p = doc.createElement('p');
        p.className = 'muted small';
        p.innerHTML = 'Also in this class, not measured: <span class="mono">' + longList(cr.unmeasured_forms, 20, ' · ') + '</span>';
        body.appendChild(p);
      }
    };
    d.addEventListener('toggle', function () { if (d.open) { d.draw(); } });
    return d;
  }

  // makeCards lists class cards a page at a time, with a filter and
  // expand/collapse for the page.
  function makeCards(host, classes, prefix, ok) {
    var size = 20;
    var c = { items: classes.map(function (cr, i) { return { cr: cr, i: i }; }), page: 0 };
    c.view = c.items;
    host.removeAttribute('data-loading');
    host.innerHTML = '<div class="toolbar"><input type="search" placeholder="Filter classes: name, form, port…" aria-label="filter classes" data-filter-cards>' +
      '<button type="button" data-expand>Expand this page</button><button type="button" data-collapse>Collapse all</button><span class="shown" data-count></span></div>' +
      '<div class="cardlist"></div><div class="pager"></div>';
    var list = host.querySelector('.cardlist'), pager = host.querySelector('.pager'), box = host.querySelector('input');
    var count = host.querySelector('[data-count]');
    function text(it) {
      if (it._t === undefined) {
        it._t = (it.cr['class'] + ' ' + (it.cr.worst || '') + ' ' + (it.cr.model ? it.cr.model.ports : '') + ' ' +
          it.cr.forms.map(function (f) { return f.form; }).join(' ')).toLowerCase();
      }
      return it._t;
    }
    c.draw = function (openFirst) {
      var pages = Math.max(1, Math.ceil(c.view.length / size));
      c.page = Math.min(Math.max(0, c.page), pages - 1);
      list.innerHTML = '';
      c.view.slice(c.page * size, (c.page + 1) * size).forEach(function (it, k) {
        var d = classCard(it.cr, prefix + (it.i + 1), ok ? 0 : it.i + 1, ok);
        list.appendChild(d);
        if (openFirst && k < openFirst) { d.open = true; d.draw(); }
      });
      count.textContent = (c.view.length === c.items.length ? '' : c.view.length + ' of ') + c.items.length + ' classes';
      pager.innerHTML = pages > 1 ? '<button type="button" data-go="prev" aria-label="previous page"' + (c.page === 0 ? ' disabled' : '') + '>‹</button>' +
        '<span class="pg">page ' + (c.page + 1) + ' of ' + pages + '</span><button type="button" data-go="next" aria-label="next page"' +
        (c.page === pages - 1 ? ' disabled' : '') + '>›</button>' : '';
    };
    c.filter = function () {
      var words = box.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
      c.view = c.items.filter(function (it) { return words.every(function (w) { return text(it).indexOf(w) >= 0; }); });
      c.page = 0;
      c.draw();
    };
    // show draws the page holding class i (from 0), opens it and returns
    // its card.
    c.show = function (i) {
      var at = c.view.indexOf(c.items[i]);
      if (at < 0) { box.value = ''; c.view = c.items; at = i; }
      c.page = Math.floor(at / size);
      c.draw();
      var d = $(prefix + (i + 1));
      if (d) { d.open = true; d.draw(); }
      return d;
    };
    box.addEventListener('input', c.filter);
    pager.addEventListener('click', function (e) {
      var go = e.target.getAttribute && e.target.getAttribute('data-go');
      if (go) { c.page += go === 'next' ? 1 : -1; c.draw(); }
    });
    host.querySelector('[data-expand]').addEventListener('click', function () {
      each(list.children, function (d) { d.open = true; d.draw(); });
    });
    host.querySelector('[data-collapse]').addEventListener('click', function () {
      each(list.children, function (d) { d.open = false; });
    });
    c.draw(ok ? 0 : 6);
    return c;
  }

  var ui = {};
  function build(r) {
    var el;
    if ((el = $('mm'))) {
      var rows = [];
      r.inconsistencies.forEach(function (cr, ci) {
        cr.forms.forEach(function (f) {
          (f.measurements || []).forEach(function (m) {
            if (m.model === null || m.model === undefined) { return; }
            rows.push({ f: f, m: m, cr: cr, anchor: 'class-' + (ci + 1), ports: f.model ? f.model.ports : '' });
          });
        });
      });
      rows.sort(function (a, b) { return a.m.mismatch !== b.m.mismatch ? (a.m.mismatch ? -1 : 1) : b.m.relative_error - a.m.relative_error; });
      var sel = el.querySelector('[data-mode-filter]'), ok = el.querySelector('[data-show-ok]');
      ui.mm = makeTable(el, { id: 'mm-table', name: 'mismatches', rows: rows, pageSize: 50, sortCol: 5, sortDir: -1, search: true,
        placeholder: 'Filter: form, class, port…',
        text: function (x) { return x.f.form + ' ' + shortMeasure(x.m.key) + ' ' + (x.m.config || '') + ' ' + x.ports + ' ' + x.cr['class'] + ' ' + (x.m.clusters || []).join(' '); },
        pass: function (x) { return (!sel.value || x.m.mode === sel.value) && (ok.checked || x.m.mismatch); },
        tr: function (x) { return ' class="' + (x.m.mismatch ? 'bad' : 'ok-row') + '" data-mode="' + esc(x.m.mode) + '"'; },
        cols: [
          { h: 'Form', key: function (x) { return x.f.form; }, td: function (x) { return td('<a href="#' + x.anchor + '">' + esc(x.f.form) + '</a>', 'form'); } },
          { h: 'Measurement', key: function (x) { return shortMeasure(x.m.key) + ' ' + (x.m.config || ''); }, td: function (x) {
            return td(esc(shortMeasure(x.m.key)) + (x.m.config ? '<div class="muted small">' + esc(x.m.config) + '</div>' : ''), 'nw');
          } },
          { h: 'Measured', n: true, key: function (x) { return x.m.measured; }, td: function (x) {
            return tdn(0, esc(num(x.m.measured)) + (x.m.noise_only ? ' ⁿ' : ''), ' data-v="' + x.m.measured + '"' + (x.m.noise_only ? ' title="measured by noise points only"' : ''));
          } },
          { h: 'Model', n: true, key: function (x) { return x.m.model; }, td: function (x) { return tdn(x.m.model); } },
          { h: 'Δ cycles', n: true, key: function (x) { return x.m.abs_error; }, td: function (x) { return tdn(0, esc(signed(x.m.abs_error))); } },
          { h: 'Error', n: true, key: function (x) { return x.m.relative_error; }, td: function (x) {
            return '<td class="n nw"><span class="bar"><i style="width:' + Math.min(100, x.m.relative_error * 100).toFixed(0) + '%"></i></span>' + esc(pct(x.m.relative_error)) + '</td>';
          } },
          { h: 'Ports (model)', key: function (x) { return x.ports; }, td: function (x) { return td(esc(x.ports), 'mono small clip', x.ports); } },
          { h: 'Class', key: function (x) { return x.cr['class']; }, td: function (x) { return td(esc(x.cr['class']), 'cls', x.cr['class']); } },
          { h: 'Cluster', key: function (x) { return (x.m.clusters || []).join(' '); }, td: function (x) {
            return td(esc((x.m.clusters || []).join(' ')) + (x.m.unstable ? ' ⚠' : ''), 'small');
          } }
        ] });
    }
    if ((el = $('classes-list'))) { ui.classes = makeCards(el, r.inconsistencies, 'class-', false); }
    if ((el = $('consistent-list'))) { ui.consistent = makeCards(el, r.consistent, 'ok-', true); }
    if ((el = $('notinmodel-table'))) { formTable(el, r.not_in_model, 'notinmodel-forms'); }
    if ((el = $('unstable-table'))) {
      makeTable(el, { id: 'unstable-tbl', name: 'unstable clusters', rows: r.unstable, pageSize: 50,
        text: function (u) { return u.id + ' ' + (u.opcodes || []).join(' ') + ' ' + (u.keys || []).join(' '); },
        cols: [
          { h: 'Cluster', n: true, key: function (u) { return u.id; }, td: function (u) { return tdn(u.id, String(u.id)); } },
          { h: 'Opcode', key: function (u) { return (u.opcodes || []).join(', '); }, td: function (u) { return td(longList(u.opcodes, 8, ', '), 'form'); } },
          { h: 'Measurement', key: function (u) { return (u.keys || []).join(', '); }, td: function (u) { return td(esc((u.keys || []).join(', '))); } },
          { h: 'Points', n: true, key: function (u) { return u.points; }, td: function (u) { return tdn(u.points, String(u.points)); } },
          { h: 'Range', n: true, key: function (u) { return (u.min || [0])[0]; }, td: function (u) { return tdn(0, esc(nums(u.min) + ' – ' + nums(u.max))); } },
          { h: 'Split across', key: function (u) { return (u.from || []).join(', '); }, td: function (u) {
            return td(u.from && u.from.length ? 'clusters ' + esc(u.from.join(', ')) : 'spread over more than ε/2');
          } },
          { h: 'Values', key: function (u) { return (u.min || [0])[0]; }, td: function (u) {
            return td(longList((u.members || []).map(function (m) { return nums(m.values) + ' (' + m.where + ')'; }), 12, '; '), 'small');
          } }
        ] });
    }
    if ((el = $('noise-table'))) {
      makeTable(el, { id: 'noise-tbl', name: 'noise points', rows: r.noise, pageSize: 50,
        text: function (p) { return p.opcode + ' ' + (p.form || '') + ' ' + p.mode + ' ' + (p.config || '') + ' ' + p.where; },
        cols: [
          { h: 'Opcode', key: function (p) { return p.opcode; }, td: function (p) { return td(esc(p.opcode), 'form'); } },
          { h: 'Form', key: function (p) { return p.form || ''; }, td: function (p) { return td(esc(p.form || ''), 'form'); } },
          { h: 'Mode', key: function (p) { return p.mode; }, td: function (p) { return td(esc(p.mode)); } },
          { h: 'Value', n: true, key: function (p) { return sortNum((p.values || [])[0]); }, td: function (p) { return tdn(0, esc(nums(p.values))); } },
          { h: 'Config', key: function (p) { return p.config || ''; }, td: function (p) { return td(esc(p.config || ''), 'small'); } },
          { h: 'Source', key: function (p) { return p.where; }, td: function (p) { return td(esc(p.where), 'small mono'); } }
        ] });
    }
    if ((el = $('errors-table'))) {
      makeTable(el, { id: 'errors-tbl', name: 'error points', rows: r.errors, pageSize: 50,
        text: function (p) { return p.opcode + ' ' + (p.form || '') + ' ' + p.mode + ' ' + (p.error || '') + ' ' + p.where; },
        cols: [
          { h: 'Opcode', key: function (p) { return p.opcode; }, td: function (p) { return td(esc(p.opcode), 'form'); } },
          { h: 'Form', key: function (p) { return p.form || ''; }, td: function (p) { return td(esc(p.form || ''), 'form'); } },
          { h: 'Mode', key: function (p) { return p.mode; }, td: function (p) { return td(esc(p.mode)); } },
          { h: 'Error', key: function (p) { return p.error || ''; }, td: function (p) { return td(esc(p.error || '')); } },
          { h: 'Source', key: function (p) { return p.where; }, td: function (p) { return td(esc(p.where), 'small mono'); } }
        ] });
    }
    if ((el = $('clusters-table'))) {
      makeTable(el, { id: 'clusters-tbl', name: 'clusters', rows: r.clusters, pageSize: 50,
        text: function (c) { return c.id + ' ' + c.mode + ' ' + (c.keys || []).join(' ') + ' ' + (c.opcodes || []).join(' '); },
        cols: [
          { h: 'Id', n: true, key: function (c) { return c.id; }, td: function (c) { return tdn(c.id, c.id + (c.unstable ? ' ⚠' : '')); } },
          { h: 'Measurement', key: function (c) { return c.mode; }, td: function (c) { return td(esc(c.mode + ': ' + (c.keys || []).join(', '))); } },
          { h: 'Points', n: true, key: function (c) { return c.points; }, td: function (c) { return tdn(c.points, String(c.points)); } },
          { h: 'Centroid', n: true, key: function (c) { return sortNum((c.centroid || [])[0]); }, td: function (c) { return tdn(0, esc(nums(c.centroid))); } },
          { h: 'Range', n: true, key: function (c) { return sortNum((c.min || [])[0]); }, td: function (c) { return tdn(0, esc(nums(c.min) + ' – ' + nums(c.max))); } },
          { h: 'Opcodes', key: function (c) { return (c.opcodes || []).join(', '); }, td: function (c) { return td(longList(c.opcodes, 12, ', '), 'mono small'); } }
        ] });
    }
  }

  // Following a link to a class (from the tables or the plots) draws and
  // opens it.
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    if (!id) { return; }
    var m = /^(class|ok)-(\d+)$/.exec(id), el = null;
    if (m && m[1] === 'class' && ui.classes) { el = ui.classes.show(parseInt(m[2], 10) - 1); }
    if (m && m[1] === 'ok' && ui.consistent) { el = ui.consistent.show(parseInt(m[2], 10) - 1); }
    if (!el) { el = $(id); }
    for (var p = el; p; p = p.parentElement) {
      if (p.tagName === 'DETAILS') { p.open = true; }
    }
    if (el) { el.scrollIntoView({ block: 'start' }); }
  }

  // gunzip inflates gzip data (RFC 1952 around RFC 1951 deflate) into a
  // Uint8Array: a small table-driven decoder, so that the page needs no
  // DecompressionStream and draws its tables before the load event.
  var LB = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
  var LE = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
  var DB = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
  var DE = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
  var ORD = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
  function gunzip(src) {
    var n = src.length, pos = 10, flg = src[3];
    if (n < 18 || src[0] !== 0x1f || src[1] !== 0x8b || src[2] !== 8) { throw new Error('the data is not gzip'); }
    if (flg & 4) { pos += 2 + (src[pos] | src[pos + 1] << 8); }
    if (flg & 8) { while (src[pos++]) { /* file name */ } }
    if (flg & 16) { while (src[pos++]) { /* comment */ } }
    if (flg & 2) { pos += 2; }
    var out = new Uint8Array((src[n - 4] | src[n - 3] << 8 | src[n - 2] << 16 | src[n - 1] << 24) >>> 0);
    var op = 0, buf = 0, cnt = 0, i, k;
    var need = function (b) { while (cnt < b) { buf |= (pos < n ? src[pos] : 0) << cnt; pos++; cnt += 8; } };
    var get = function (b) { need(b); var v = buf & ((1 << b) - 1); buf >>>= b; cnt -= b; return v; };
    // A code's table maps its longest code's worth of next bits to
    // symbol << 4 | code length.
    var table = function (lens) {
      var max = 0, bl = new Uint16Array(16), next = new Uint16Array(16), code = 0;
      for (i = 0; i < lens.length; i++) { max = Math.max(max, lens[i]); bl[lens[i]]++; }
      bl[0] = 0;
      for (i = 1; i < 16; i++) { code = (code + bl[i - 1]) << 1; next[i] = code; }
      var t = new Int32Array(1 << max);
      for (i = 0; i < lens.length; i++) {
        var l = lens[i];
        if (!l) { continue; }
        var c = next[l]++, r = 0;
        for (k = 0; k < l; k++) { r = (r << 1) | (c & 1); c >>= 1; }
        for (k = r; k < t.length; k += 1 << l) { t[k] = i << 4 | l; }
      }
      return { t: t, max: max };
    };
    var sym = function (h) {
      need(h.max);
      var e = h.t[buf & ((1 << h.max) - 1)], l = e & 15;
      if (!l) { throw new Error('bad deflate code'); }
      buf >>>= l;
      cnt -= l;
      return e >> 4;
    };
    var fixed = null, last;
    do {
      last = get(1);
      var type = get(2), lt, dt;
      if (type === 0) {
        pos -= cnt >> 3;
        buf = cnt = 0;
        var len = src[pos] | src[pos + 1] << 8;
        out.set(src.subarray(pos + 4, pos + 4 + len), op);
        pos += 4 + len;
        op += len;
        continue;
      }
      if (type === 1) {
        if (!fixed) {
          var fl = new Uint8Array(288);
          for (i = 0; i < 288; i++) { fl[i] = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8; }
          var fd = new Uint8Array(30);
          fd.fill(5);
          fixed = [table(fl), table(fd)];
        }
        lt = fixed[0];
        dt = fixed[1];
      } else if (type === 2) {
        var hlit = get(5) + 257, hdist = get(5) + 1, hclen = get(4) + 4;
        var cl = new Uint8Array(19);
        for (i = 0; i < hclen; i++) { cl[ORD[i]] = get(3); }
        var ct = table(cl), lens = new Uint8Array(hlit + hdist), j = 0;
        while (j < hlit + hdist) {
          var s = sym(ct), rep, val = 0;
          if (s < 16) { lens[j++] = s; continue; }
          if (s === 16) { val = lens[j - 1]; rep = 3 + get(2); } else if (s === 17) { rep = 3 + get(3); } else { rep = 11 + get(7); }
          while (rep--) { lens[j++] = val; }
        }
        lt = table(lens.subarray(0, hlit));
        dt = table(lens.subarray(hlit));
      } else {
        throw new Error('bad deflate block');
      }
      for (;;) {
        var c = sym(lt);
        if (c < 256) { out[op++] = c; continue; }
        if (c === 256) { break; }
        c -= 257;
        var ln = LB[c] + get(LE[c]), d = sym(dt), dist = DB[d] + get(DE[d]);
        for (k = 0; k < ln; k++, op++) { out[op] = out[op - dist]; }
      }
    } while (!last);
    if (op !== out.length) { throw new Error('the data is cut short (' + op + ' of ' + out.length + ' bytes)'); }
    return out;
  }

  function unpack() {
    var el = $('report-data');
    if (!el) { throw new Error('the page carries no data'); }
    var bin = atob(el.textContent.trim());
    var bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) { bytes[i] = bin.charCodeAt(i); }
    return new TextDecoder().decode(gunzip(bytes));
  }

  // ?selftest (used by the package's headless-browser test) works the
  // tables the way a reader would and records the outcome in
  // body[data-selftest].
  function selftest() {
    var verdict = 'ok';
    var fail = function (m) { if (verdict === 'ok') { verdict = 'fail: ' + m; } };
    var t = ui.mm;
    if (t && t.rows.length > 1) {
      var tb = t.table.tBodies[0];
      if (tb.rows.length !== Math.min(t.size, t.view.length)) { fail('the first page shows ' + tb.rows.length + ' rows of ' + t.view.length); }
      var ths = t.table.tHead.rows[0].cells;
      var col = -1;
      each(ths, function (th, i) { if (th.textContent.trim().indexOf('Measured') === 0) { col = i; } });
      ths[col].click();
      var prev = Infinity;
      t.view.forEach(function (x) { if (x.m.measured > prev) { fail('numeric sort is not descending'); } prev = x.m.measured; });
      prev = Infinity;
      each(tb.rows, function (r) {
        var v = parseFloat(r.cells[col].getAttribute('data-v'));
        if (v > prev) { fail('the page is not sorted descending'); }
        prev = v;
      });
      ths[0].click();
      var last = '';
      each(tb.rows, function (r) {
        var x = r.cells[0].textContent.trim();
        if (last && last.localeCompare(x, undefined, { numeric: true }) > 0) { fail('text sort is not ascending'); }
        last = x;
      });
      var pages = Math.ceil(t.view.length / t.size);
      if (pages > 1) {
        var first = tb.rows[0].cells[0].textContent;
        t.table.parentNode.parentNode.querySelector('[data-go="last"]').click();
        if (tb.rows.length !== t.view.length - (pages - 1) * t.size) { fail('the last page shows ' + tb.rows.length + ' rows'); }
        t.table.parentNode.parentNode.querySelector('[data-go="first"]').click();
        if (tb.rows[0].cells[0].textContent !== first) { fail('paging back did not return to the first row'); }
      }
      var box = t.table.parentNode.parentNode.querySelector('[data-filter]');
      var word = t.view[t.view.length - 1].f.form.split(' ')[0];
      box.value = word;
      box.dispatchEvent(new Event('input'));
      if (t.view.length === 0) { fail('filter hid every row'); }
      each(tb.rows, function (r) { if (r.textContent.indexOf(word) < 0) { fail('filter shows a row without ' + word); } });
      box.value = '';
      box.dispatchEvent(new Event('input'));
    }
    var c = ui.classes;
    if (c) {
      var n = c.items.length;
      location.hash = '#class-' + n;
      reveal();
      var d = $('class-' + n);
      if (!d || !d.open) { fail('following #class-' + n + ' did not open it'); }
      else if (!d.querySelector('table.forms tbody tr')) { fail('an opened class shows no forms'); }
      var b = doc.querySelector('#classes-list [data-collapse]');
      b.click();
      if (d && d.open) { fail('collapse all left a class open'); }
    }
    doc.body.setAttribute('data-selftest', verdict);
  }

  function done() {
    var errs = doc.documentElement.getAttribute('data-js-errors');
    if (errs) {
      var bar = $('jserr');
      bar.textContent = 'Script errors on this page: ' + errs;
      bar.hidden = false;
    }
    doc.body.setAttribute('data-ready', '1');
  }

  window.addEventListener('hashchange', reveal);
  var text = null;
  try {
    text = unpack();
  } catch (e) {
    each(doc.querySelectorAll('.lazy[data-loading]'), function (el) {
      el.innerHTML = '<p class="note">The tables could not be drawn: ' + esc(e && e.message || e) + '. The same data is in the JSON report (portlab cluster … --analysis-inconsistencies-output-file report.json).</p>';
    });
    console.error('report data: ' + (e && e.message || e));
  }
  if (text !== null) {
    var r = JSON.parse(text);
    var a = $('download');
    if (a && window.URL && URL.createObjectURL) {
      a.href = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
      a.hidden = false;
    }
    build(r);
    reveal();
    if (/[?&]selftest\b/.test(location.search)) { selftest(); }
  }
  done();
})();
