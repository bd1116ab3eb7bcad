(function () {
  'use strict';
  var each = function (list, fn) { Array.prototype.forEach.call(list, fn); };

  // Sortable tables: click (or Enter on) a header; numeric cells sort by
  // their data-v attribute, others by text with numbers compared as numbers.
  function key(td) {
    var v = td.getAttribute('data-v');
    if (v === null) { return null; }
    var f = parseFloat(v);
    return isNaN(f) ? -Infinity : f;
  }
  function sortTable(table, col, dir) {
    var tb = table.tBodies[0];
    var rows = Array.prototype.slice.call(tb.rows);
    rows.forEach(function (r, i) { r._i = i; });
    rows.sort(function (a, b) {
      var x = a.cells[col], y = b.cells[col];
      if (!x || !y) { return 0; }
      var kx = key(x), ky = key(y), r;
      if (kx !== null && ky !== null) {
        r = kx === ky ? 0 : (kx < ky ? -1 : 1);
      } else {
        r = x.textContent.trim().localeCompare(y.textContent.trim(), undefined, { numeric: true });
      }
      return r !== 0 ? dir * r : a._i - b._i;
    });
    rows.forEach(function (r) { tb.appendChild(r); });
  }
  each(document.querySelectorAll('table.sortable'), function (t) {
    if (!t.tHead) { return; }
    var ths = t.tHead.rows[0].cells;
    each(ths, function (th, i) {
      th.tabIndex = 0;
      th.title = 'sort by ' + th.textContent.trim().toLowerCase();
      var go = function () {
        var cur = th.getAttribute('aria-sort');
        var dir = cur === 'descending' ? 1 : cur === 'ascending' ? -1 : (th.classList.contains('n') ? -1 : 1);
        each(ths, function (o) { o.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending');
        sortTable(t, i, dir);
      };
      th.addEventListener('click', go);
      th.addEventListener('keydown', function (e) { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); go(); } });
    });
  });

  // Row filters: a search box, an optional measurement selector and an
  // optional "show agreeing rows" box act together on one table.
  function applyFilter(id) {
    var t = document.getElementById(id);
    if (!t) { return; }
    var box = document.querySelector('[data-filter="' + id + '"]');
    var sel = document.querySelector('[data-mode-filter="' + id + '"]');
    var ok = document.querySelector('[data-show-ok="' + id + '"]');
    var q = box ? box.value.trim().toLowerCase() : '';
    var words = q ? q.split(/\s+/) : [];
    var mode = sel ? sel.value : '';
    var showOk = ok ? ok.checked : true;
    var shown = 0, total = 0;
    each(t.tBodies[0].rows, function (r) {
      var text = r.textContent.toLowerCase();
      var vis = words.every(function (w) { return text.indexOf(w) >= 0; }) &&
        (!mode || r.getAttribute('data-mode') === mode) &&
        (showOk || !r.classList.contains('ok-row'));
      r.hidden = !vis;
      total++;
      if (vis) { shown++; }
    });
    var c = document.querySelector('[data-count-for="' + id + '"]');
    if (c) { c.textContent = shown + ' of ' + total + ' rows'; }
  }
  var ids = {};
  each(document.querySelectorAll('[data-filter],[data-mode-filter],[data-show-ok]'), function (el) {
    var id = el.getAttribute('data-filter') || el.getAttribute('data-mode-filter') || el.getAttribute('data-show-ok');
    ids[id] = true;
    el.addEventListener(el.tagName === 'INPUT' && el.type === 'search' ? 'input' : 'change', function () { applyFilter(id); });
  });
  Object.keys(ids).forEach(applyFilter);

  // Class cards: filter by text, expand or collapse all.
  each(document.querySelectorAll('[data-filter-cards]'), function (box) {
    var list = document.getElementById(box.getAttribute('data-filter-cards'));
    var count = document.querySelector('[data-count-for="' + box.getAttribute('data-filter-cards') + '"]');
    var run = function () {
      var words = box.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
      var shown = 0, total = 0;
      each(list.children, function (d) {
        var text = d.textContent.toLowerCase();
        d.hidden = !words.every(function (w) { return text.indexOf(w) >= 0; });
        total++;
        if (!d.hidden) { shown++; }
      });
      if (count) { count.textContent = shown + ' of ' + total + ' classes'; }
    };
    box.addEventListener('input', run);
    run();
  });
  each(document.querySelectorAll('[data-expand],[data-collapse]'), function (b) {
    var open = b.hasAttribute('data-expand');
    var list = document.getElementById(b.getAttribute(open ? 'data-expand' : 'data-collapse'));
    b.addEventListener('click', function () {
      each(list.querySelectorAll('details.klass'), function (d) { if (!d.hidden) { d.open = open; } });
    });
  });

  // Following a link to a class (from the tables or the plots) opens it.
  function reveal() {
    var id = decodeURIComponent(location.hash.slice(1));
    if (!id) { return; }
    var el = document.getElementById(id);
    for (var p = el; p; p = p.parentElement) {
      if (p.tagName === 'DETAILS') { p.open = true; }
    }
    if (el) { el.scrollIntoView({ block: 'start' }); }
  }
  window.addEventListener('hashchange', reveal);
  reveal();

  // ?selftest (used by the package's headless-browser test) sorts and
  // filters the mismatch table the way a reader would and records the
  // outcome in body[data-selftest].
  if (/[?&]selftest\b/.test(location.search)) {
    var verdict = 'ok';
    var fail = function (m) { if (verdict === 'ok') { verdict = 'fail: ' + m; } };
    var t = document.getElementById('mm-table');
    if (t && t.tBodies[0].rows.length > 1) {
      var ths = t.tHead.rows[0].cells;
      var col = -1;
      each(ths, function (th, i) { if (th.textContent.trim().indexOf('Measured') === 0) { col = i; } });
      ths[col].click();
      var prev = Infinity;
      each(t.tBodies[0].rows, function (r) {
        var v = parseFloat(r.cells[col].getAttribute('data-v'));
        if (v > prev) { fail('numeric sort is not descending'); }
        prev = v;
      });
      ths[0].click();
      var last = '';
      each(t.tBodies[0].rows, function (r) {
        var x = r.cells[0].textContent.trim();
        if (last && last.localeCompare(x, undefined, { numeric: true }) > 0) { fail('text sort is not ascending'); }
        last = x;
      });
      var box = document.querySelector('[data-filter="mm-table"]');
      var word = t.tBodies[0].rows[t.tBodies[0].rows.length - 1].cells[0].textContent.trim().split(' ')[0];
      box.value = word;
      box.dispatchEvent(new Event('input'));
      var vis = 0;
      each(t.tBodies[0].rows, function (r) {
        if (!r.hidden) { vis++; if (r.textContent.indexOf(word) < 0) { fail('filter shows a row without ' + word); } }
      });
      if (vis === 0) { fail('filter hid every row'); }
      box.value = '';
      box.dispatchEvent(new Event('input'));
    }
    var k = document.querySelector('details.klass');
    if (k) {
      var b = document.querySelector('[data-collapse]');
      if (b) { b.click(); if (k.open) { fail('collapse all left a class open'); } }
    }
    document.body.setAttribute('data-selftest', verdict);
  }

  var errs = document.documentElement.getAttribute('data-js-errors');
  if (errs) {
    var bar = document.getElementById('jserr');
    bar.textContent = 'Script errors on this page: ' + errs;
    bar.hidden = false;
  }
  document.body.setAttribute('data-ready', '1');
})();
