package isa

import (
	"sort"
	"strings"
)

// EVEX forms. golang.org/x/arch's x86 table predates AVX-512, so the common
// AVX-512 families are described here, one line per family, and expanded
// into forms: every vector length the instruction has (zmm always; xmm and
// ymm with avx512vl), register, memory and embedded-broadcast sources, and
// unmasked, merge-masked ({k}) and zero-masked ({k}{z}) destinations.
// An EVEX xmm/ymm form whose name a VEX form already has gets the "{evex}"
// prefix. The opmask instructions (kmov, kand, ...) are VEX-encoded and are
// listed here too.
//
// One kind of name collides: a narrowing conversion with an xmm destination
// and a broadcast source ("vcvtpd2ps xmm, m64bcst") exists at 128 bits
// ({1to2}) and 256 bits ({1to4}). Lengths are expanded widest first, so the
// 256-bit form keeps the name; the 128-bit one is counted as dropped (7
// mnemonics x 3 mask variants = 21, see Stats).
//
// Generated forms carry no Opcode text; TestCatalogEncodings checks instead
// that GNU as encodes each one with an EVEX prefix whose vector length, mask,
// zeroing and broadcast bits match the form.
//
// Features follow the Intel manual's CPUID column: the family's feature
// (avx512f, avx512bw, avx512dq, ...) plus avx512vl for 128- and 256-bit forms
// of packed instructions; scalar forms need no avx512vl.

// vector lengths, as a bit set.
const (
	l128 = 1 << iota
	l256
	l512
	lAll    = l128 | l256 | l512
	lScalar = 0 // a scalar family: xmm operands, no avx512vl
)

// maskMode says which masked variants a family has.
type maskMode uint8

const (
	maskFull  maskMode = iota // {k} and {k}{z} on register destinations, {k} on memory ones
	maskMerge                 // {k} only (compares into k: masked-off bits are zeroed)
	maskNone                  // no masking
)

// evexFamily describes mnemonics that share operands, access and features.
type evexFamily struct {
	mnems  string // space-separated mnemonics
	ops    string // operand template, see evexOperand
	access string // access per operand of the unmasked form
	elem   int    // broadcast element size in bits; 0: no broadcast
	lens   int    // vector lengths; lScalar for scalar families
	feat   string // feature besides avx512vl ("avx512f", "avx512bw", ...)
	mask   maskMode
	// suffix: the AT&T mnemonic takes an x/y suffix for a memory source when
	// the destination is xmm (narrowing conversions: vcvtpd2psx, vcvtpd2psy).
	suffix bool
	enc    Encoding // EVEX unless set (opmask instructions are VEX)
}

// Shorthands for the family table.
func fam(mnems, ops, access string, elem, lens int, feat string) evexFamily {
	return evexFamily{mnems: mnems, ops: ops, access: access, elem: elem, lens: lens, feat: feat}
}

func (e evexFamily) noMask() evexFamily     { e.mask = maskNone; return e }
func (e evexFamily) mergeOnly() evexFamily  { e.mask = maskMerge; return e }
func (e evexFamily) attSuffix() evexFamily  { e.suffix = true; return e }
func (e evexFamily) vexEncoded() evexFamily { e.enc = VEX; e.mask = maskNone; return e }

const (
	f512  = "avx512f"
	bw512 = "avx512bw"
	dq512 = "avx512dq"
	cd512 = "avx512cd"
)

// Operand templates (comma-separated tokens):
//
//	v      vector register of the form's length (xmm, ymm, zmm)
//	v/m    v or memory of the form's length, plus broadcast when elem > 0
//	h      half-length vector register (ymm for zmm, xmm otherwise)
//	h/m    h or memory of half the form's length, plus broadcast when elem > 0
//	dup    vmovddup's source: xmm/m64 at 128 bits, v/m otherwise
//	m      memory of the form's length
//	x, x/mN, y/m256, mN, k, k/mN, r32, r64, i (imm8)
var evexFamilies = []evexFamily{
	// Floating-point arithmetic.
	fam("vaddps vsubps vmulps vdivps vminps vmaxps vscalefps", "v, v, v/m", "w,r,r", 32, lAll, f512),
	fam("vaddpd vsubpd vmulpd vdivpd vminpd vmaxpd vscalefpd", "v, v, v/m", "w,r,r", 64, lAll, f512),
	fam("vaddss vsubss vmulss vdivss vminss vmaxss vsqrtss vscalefss vgetexpss vrcp14ss vrsqrt14ss", "x, x, x/m32", "w,r,r", 0, lScalar, f512),
	fam("vaddsd vsubsd vmulsd vdivsd vminsd vmaxsd vsqrtsd vscalefsd vgetexpsd vrcp14sd vrsqrt14sd", "x, x, x/m64", "w,r,r", 0, lScalar, f512),
	fam("vsqrtps vgetexpps vrcp14ps vrsqrt14ps", "v, v/m", "w,r", 32, lAll, f512),
	fam("vsqrtpd vgetexppd vrcp14pd vrsqrt14pd", "v, v/m", "w,r", 64, lAll, f512),
	fam("vrndscaleps vgetmantps", "v, v/m, i", "w,r,r", 32, lAll, f512),
	fam("vrndscalepd vgetmantpd", "v, v/m, i", "w,r,r", 64, lAll, f512),
	fam("vrndscaless vgetmantss", "x, x, x/m32, i", "w,r,r,r", 0, lScalar, f512),
	fam("vrndscalesd vgetmantsd", "x, x, x/m64, i", "w,r,r,r", 0, lScalar, f512),
	fam("vreduceps", "v, v/m, i", "w,r,r", 32, lAll, dq512),
	fam("vreducepd", "v, v/m, i", "w,r,r", 64, lAll, dq512),
	fam("vreducess", "x, x, x/m32, i", "w,r,r,r", 0, lScalar, dq512),
	fam("vreducesd", "x, x, x/m64, i", "w,r,r,r", 0, lScalar, dq512),
	fam("vrangeps", "v, v, v/m, i", "w,r,r,r", 32, lAll, dq512),
	fam("vrangepd", "v, v, v/m, i", "w,r,r,r", 64, lAll, dq512),
	fam("vfixupimmps", "v, v, v/m, i", "rw,r,r,r", 32, lAll, f512),
	fam("vfixupimmpd", "v, v, v/m, i", "rw,r,r,r", 64, lAll, f512),
	fam("vfixupimmss", "x, x, x/m32, i", "rw,r,r,r", 0, lScalar, f512),
	fam("vfixupimmsd", "x, x, x/m64, i", "rw,r,r,r", 0, lScalar, f512),

	// Fused multiply-add.
	fam(fmaNames("ps", true), "v, v, v/m", "rw,r,r", 32, lAll, f512),
	fam(fmaNames("pd", true), "v, v, v/m", "rw,r,r", 64, lAll, f512),
	fam(fmaNames("ss", false), "x, x, x/m32", "rw,r,r", 0, lScalar, f512),
	fam(fmaNames("sd", false), "x, x, x/m64", "rw,r,r", 0, lScalar, f512),

	// Logic.
	fam("vandps vandnps vorps vxorps", "v, v, v/m", "w,r,r", 32, lAll, dq512),
	fam("vandpd vandnpd vorpd vxorpd", "v, v, v/m", "w,r,r", 64, lAll, dq512),
	fam("vpandd vpandnd vpord vpxord", "v, v, v/m", "w,r,r", 32, lAll, f512),
	fam("vpandq vpandnq vporq vpxorq", "v, v, v/m", "w,r,r", 64, lAll, f512),
	fam("vpternlogd", "v, v, v/m, i", "rw,r,r,r", 32, lAll, f512),
	fam("vpternlogq", "v, v, v/m, i", "rw,r,r,r", 64, lAll, f512),

	// Integer arithmetic.
	fam("vpaddb vpaddw vpsubb vpsubw vpaddsb vpaddsw vpaddusb vpaddusw vpsubsb vpsubsw vpsubusb vpsubusw "+
		"vpmullw vpmulhw vpmulhuw vpmulhrsw vpmaddwd vpmaddubsw vpavgb vpavgw vpmaxsb vpmaxsw vpmaxub vpmaxuw "+
		"vpminsb vpminsw vpminub vpminuw vpsllvw vpsrlvw vpsravw vpacksswb vpackuswb",
		"v, v, v/m", "w,r,r", 0, lAll, bw512),
	fam("vpackssdw vpackusdw", "v, v, v/m", "w,r,r", 32, lAll, bw512),
	fam("vpsadbw", "v, v, v/m", "w,r,r", 0, lAll, bw512).noMask(),
	fam("vpaddd vpsubd vpmulld vpmaxsd vpmaxud vpminsd vpminud vpsllvd vpsrlvd vpsravd vprolvd vprorvd",
		"v, v, v/m", "w,r,r", 32, lAll, f512),
	fam("vpaddq vpsubq vpmuludq vpmuldq vpmaxsq vpmaxuq vpminsq vpminuq vpsllvq vpsrlvq vpsravq vprolvq vprorvq",
		"v, v, v/m", "w,r,r", 64, lAll, f512),
	fam("vpmullq", "v, v, v/m", "w,r,r", 64, lAll, dq512),
	fam("vpabsb vpabsw", "v, v/m", "w,r", 0, lAll, bw512),
	fam("vpabsd", "v, v/m", "w,r", 32, lAll, f512),
	fam("vpabsq", "v, v/m", "w,r", 64, lAll, f512),
	fam("vpsllw vpsrlw vpsraw", "v, v/m, i", "w,r,r", 0, lAll, bw512),
	fam("vpslld vpsrld vpsrad vprold vprord", "v, v/m, i", "w,r,r", 32, lAll, f512),
	fam("vpsllq vpsrlq vpsraq vprolq vprorq", "v, v/m, i", "w,r,r", 64, lAll, f512),
	fam("vpsllw vpsrlw vpsraw", "v, v, x/m128", "w,r,r", 0, lAll, bw512),
	fam("vpslld vpsrld vpsrad vpsllq vpsrlq vpsraq", "v, v, x/m128", "w,r,r", 0, lAll, f512),
	fam("vpslldq vpsrldq", "v, v/m, i", "w,r,r", 0, lAll, bw512).noMask(),
	fam("vpmadd52luq vpmadd52huq", "v, v, v/m", "rw,r,r", 64, lAll, "avx512ifma"),
	fam("vpdpbusd vpdpbusds vpdpwssd vpdpwssds", "v, v, v/m", "rw,r,r", 32, lAll, "avx512_vnni"),
	fam("vpopcntd", "v, v/m", "w,r", 32, lAll, "avx512_vpopcntdq"),
	fam("vpopcntq", "v, v/m", "w,r", 64, lAll, "avx512_vpopcntdq"),
	fam("vpopcntb vpopcntw", "v, v/m", "w,r", 0, lAll, "avx512_bitalg"),
	fam("vplzcntd vpconflictd", "v, v/m", "w,r", 32, lAll, cd512),
	fam("vplzcntq vpconflictq", "v, v/m", "w,r", 64, lAll, cd512),

	// Shuffles and permutes.
	fam("vpshufb vpunpcklbw vpunpckhbw vpunpcklwd vpunpckhwd", "v, v, v/m", "w,r,r", 0, lAll, bw512),
	fam("vpalignr", "v, v, v/m, i", "w,r,r,r", 0, lAll, bw512),
	fam("vpshufhw vpshuflw", "v, v/m, i", "w,r,r", 0, lAll, bw512),
	fam("vpshufd", "v, v/m, i", "w,r,r", 32, lAll, f512),
	fam("vpunpckldq vpunpckhdq vunpcklps vunpckhps", "v, v, v/m", "w,r,r", 32, lAll, f512),
	fam("vpunpcklqdq vpunpckhqdq vunpcklpd vunpckhpd", "v, v, v/m", "w,r,r", 64, lAll, f512),
	fam("vshufps", "v, v, v/m, i", "w,r,r,r", 32, lAll, f512),
	fam("vshufpd", "v, v, v/m, i", "w,r,r,r", 64, lAll, f512),
	fam("vpermd vpermps", "v, v, v/m", "w,r,r", 32, l256|l512, f512),
	fam("vpermq vpermpd", "v, v, v/m", "w,r,r", 64, l256|l512, f512),
	fam("vpermq vpermpd", "v, v/m, i", "w,r,r", 64, l256|l512, f512),
	fam("vpermw", "v, v, v/m", "w,r,r", 0, lAll, bw512),
	fam("vpermb", "v, v, v/m", "w,r,r", 0, lAll, "avx512vbmi"),
	fam("vpermilps", "v, v, v/m", "w,r,r", 32, lAll, f512),
	fam("vpermilpd", "v, v, v/m", "w,r,r", 64, lAll, f512),
	fam("vpermilps", "v, v/m, i", "w,r,r", 32, lAll, f512),
	fam("vpermilpd", "v, v/m, i", "w,r,r", 64, lAll, f512),
	fam("vpermi2d vpermi2ps vpermt2d vpermt2ps", "v, v, v/m", "rw,r,r", 32, lAll, f512),
	fam("vpermi2q vpermi2pd vpermt2q vpermt2pd", "v, v, v/m", "rw,r,r", 64, lAll, f512),
	fam("vpermi2w vpermt2w", "v, v, v/m", "rw,r,r", 0, lAll, bw512),
	fam("vpermi2b vpermt2b", "v, v, v/m", "rw,r,r", 0, lAll, "avx512vbmi"),
	fam("valignd", "v, v, v/m, i", "w,r,r,r", 32, lAll, f512),
	fam("valignq", "v, v, v/m, i", "w,r,r,r", 64, lAll, f512),
	fam("vshuff32x4 vshufi32x4", "v, v, v/m, i", "w,r,r,r", 32, l256|l512, f512),
	fam("vshuff64x2 vshufi64x2", "v, v, v/m, i", "w,r,r,r", 64, l256|l512, f512),
	fam("vinsertf32x4 vinserti32x4", "v, v, x/m128, i", "w,r,r,r", 0, l256|l512, f512),
	fam("vinsertf64x2 vinserti64x2", "v, v, x/m128, i", "w,r,r,r", 0, l256|l512, dq512),
	fam("vinsertf32x8 vinserti32x8", "v, v, y/m256, i", "w,r,r,r", 0, l512, dq512),
	fam("vinsertf64x4 vinserti64x4", "v, v, y/m256, i", "w,r,r,r", 0, l512, f512),
	fam("vextractf32x4 vextracti32x4", "x/m128, v, i", "w,r,r", 0, l256|l512, f512),
	fam("vextractf64x2 vextracti64x2", "x/m128, v, i", "w,r,r", 0, l256|l512, dq512),
	fam("vextractf32x8 vextracti32x8", "y/m256, v, i", "w,r,r", 0, l512, dq512),
	fam("vextractf64x4 vextracti64x4", "y/m256, v, i", "w,r,r", 0, l512, f512),
	fam("vpblendmd vblendmps", "v, v, v/m", "w,r,r", 32, lAll, f512),
	fam("vpblendmq vblendmpd", "v, v, v/m", "w,r,r", 64, lAll, f512),
	fam("vpblendmb vpblendmw", "v, v, v/m", "w,r,r", 0, lAll, bw512),
	fam("vpcompressd vpcompressq vcompressps vcompresspd", "v, v", "w,r", 0, lAll, f512),
	fam("vpcompressd vpcompressq vcompressps vcompresspd", "m, v", "w,r", 0, lAll, f512),
	fam("vpcompressb vpcompressw", "v, v", "w,r", 0, lAll, "avx512_vbmi2"),
	fam("vpcompressb vpcompressw", "m, v", "w,r", 0, lAll, "avx512_vbmi2"),
	fam("vpexpandd vpexpandq vexpandps vexpandpd", "v, v/m", "w,r", 0, lAll, f512),
	fam("vpexpandb vpexpandw", "v, v/m", "w,r", 0, lAll, "avx512_vbmi2"),

	// Broadcasts.
	fam("vbroadcastss", "v, x/m32", "w,r", 0, lAll, f512),
	fam("vbroadcastsd", "v, x/m64", "w,r", 0, l256|l512, f512),
	fam("vbroadcastf32x2", "v, x/m64", "w,r", 0, l256|l512, dq512),
	fam("vbroadcasti32x2", "v, x/m64", "w,r", 0, lAll, dq512),
	fam("vbroadcastf32x4 vbroadcasti32x4", "v, m128", "w,r", 0, l256|l512, f512),
	fam("vbroadcastf64x2 vbroadcasti64x2", "v, m128", "w,r", 0, l256|l512, dq512),
	fam("vbroadcastf32x8 vbroadcasti32x8", "v, m256", "w,r", 0, l512, dq512),
	fam("vbroadcastf64x4 vbroadcasti64x4", "v, m256", "w,r", 0, l512, f512),
	fam("vpbroadcastb", "v, x/m8", "w,r", 0, lAll, bw512),
	fam("vpbroadcastw", "v, x/m16", "w,r", 0, lAll, bw512),
	fam("vpbroadcastb vpbroadcastw", "v, r32", "w,r", 0, lAll, bw512),
	fam("vpbroadcastd", "v, x/m32", "w,r", 0, lAll, f512),
	fam("vpbroadcastq", "v, x/m64", "w,r", 0, lAll, f512),
	fam("vpbroadcastd", "v, r32", "w,r", 0, lAll, f512),
	fam("vpbroadcastq", "v, r64", "w,r", 0, lAll, f512),

	// Conversions.
	fam("vcvtdq2ps vcvtps2dq vcvttps2dq vcvtudq2ps vcvtps2udq vcvttps2udq", "v, v/m", "w,r", 32, lAll, f512),
	fam("vcvtqq2pd vcvtuqq2pd vcvtpd2qq vcvttpd2qq vcvtpd2uqq vcvttpd2uqq", "v, v/m", "w,r", 64, lAll, dq512),
	fam("vcvtdq2pd vcvtudq2pd vcvtps2pd", "v, h/m", "w,r", 32, lAll, f512),
	fam("vcvtps2qq vcvttps2qq vcvtps2uqq vcvttps2uqq", "v, h/m", "w,r", 32, lAll, dq512),
	fam("vcvtpd2ps vcvtpd2dq vcvttpd2dq vcvtpd2udq vcvttpd2udq", "h, v/m", "w,r", 64, lAll, f512).attSuffix(),
	fam("vcvtqq2ps vcvtuqq2ps", "h, v/m", "w,r", 64, lAll, dq512).attSuffix(),
	fam("vcvtph2ps", "v, h/m", "w,r", 0, lAll, f512),
	fam("vcvtps2ph", "h/m, v, i", "w,r,r", 0, lAll, f512),
	fam("vpmovzxbw vpmovsxbw", "v, h/m", "w,r", 0, lAll, bw512),
	fam("vpmovzxwd vpmovsxwd vpmovzxdq vpmovsxdq", "v, h/m", "w,r", 0, lAll, f512),
	fam("vpmovqd vpmovsqd vpmovusqd vpmovdw vpmovsdw vpmovusdw", "h/m, v", "w,r", 0, lAll, f512),
	fam("vpmovwb vpmovswb vpmovuswb", "h/m, v", "w,r", 0, lAll, bw512),

	// Moves.
	fam("vmovaps vmovups vmovapd vmovupd vmovdqa32 vmovdqa64 vmovdqu32 vmovdqu64", "v, v/m", "w,r", 0, lAll, f512),
	fam("vmovaps vmovups vmovapd vmovupd vmovdqa32 vmovdqa64 vmovdqu32 vmovdqu64", "m, v", "w,r", 0, lAll, f512),
	fam("vmovdqu8 vmovdqu16", "v, v/m", "w,r", 0, lAll, bw512),
	fam("vmovdqu8 vmovdqu16", "m, v", "w,r", 0, lAll, bw512),
	fam("vmovntps vmovntpd vmovntdq", "m, v", "w,r", 0, lAll, f512).noMask(),
	fam("vmovntdqa", "v, m", "w,r", 0, lAll, f512).noMask(),
	fam("vmovshdup vmovsldup", "v, v/m", "w,r", 0, lAll, f512),
	fam("vmovddup", "v, dup", "w,r", 0, lAll, f512),
	fam("vmovd", "x, r32", "w,r", 0, lScalar, f512).noMask(),
	fam("vmovd", "x, m32", "w,r", 0, lScalar, f512).noMask(),
	fam("vmovd", "r32, x", "w,r", 0, lScalar, f512).noMask(),
	fam("vmovd", "m32, x", "w,r", 0, lScalar, f512).noMask(),
	fam("vmovq", "x, r64", "w,r", 0, lScalar, f512).noMask(),
	fam("vmovq", "x, x/m64", "w,r", 0, lScalar, f512).noMask(),
	fam("vmovq", "r64, x", "w,r", 0, lScalar, f512).noMask(),
	fam("vmovq", "m64, x", "w,r", 0, lScalar, f512).noMask(),
	fam("vmovss", "x, x, x", "w,r,r", 0, lScalar, f512),
	fam("vmovss", "x, m32", "w,r", 0, lScalar, f512),
	fam("vmovss", "m32, x", "w,r", 0, lScalar, f512),
	fam("vmovsd", "x, x, x", "w,r,r", 0, lScalar, f512),
	fam("vmovsd", "x, m64", "w,r", 0, lScalar, f512),
	fam("vmovsd", "m64, x", "w,r", 0, lScalar, f512),

	// Compares into mask registers, and mask <-> vector.
	fam("vcmpps", "k, v, v/m, i", "w,r,r,r", 32, lAll, f512).mergeOnly(),
	fam("vcmppd", "k, v, v/m, i", "w,r,r,r", 64, lAll, f512).mergeOnly(),
	fam("vcmpss", "k, x, x/m32, i", "w,r,r,r", 0, lScalar, f512).mergeOnly(),
	fam("vcmpsd", "k, x, x/m64, i", "w,r,r,r", 0, lScalar, f512).mergeOnly(),
	fam("vpcmpb vpcmpub vpcmpw vpcmpuw", "k, v, v/m, i", "w,r,r,r", 0, lAll, bw512).mergeOnly(),
	fam("vpcmpd vpcmpud", "k, v, v/m, i", "w,r,r,r", 32, lAll, f512).mergeOnly(),
	fam("vpcmpq vpcmpuq", "k, v, v/m, i", "w,r,r,r", 64, lAll, f512).mergeOnly(),
	fam("vpcmpeqb vpcmpeqw vpcmpgtb vpcmpgtw vptestmb vptestmw vptestnmb vptestnmw", "k, v, v/m", "w,r,r", 0, lAll, bw512).mergeOnly(),
	fam("vpcmpeqd vpcmpgtd vptestmd vptestnmd", "k, v, v/m", "w,r,r", 32, lAll, f512).mergeOnly(),
	fam("vpcmpeqq vpcmpgtq vptestmq vptestnmq", "k, v, v/m", "w,r,r", 64, lAll, f512).mergeOnly(),
	fam("vpmovb2m vpmovw2m", "k, v", "w,r", 0, lAll, bw512).noMask(),
	fam("vpmovd2m vpmovq2m", "k, v", "w,r", 0, lAll, dq512).noMask(),
	fam("vpmovm2b vpmovm2w", "v, k", "w,r", 0, lAll, bw512).noMask(),
	fam("vpmovm2d vpmovm2q", "v, k", "w,r", 0, lAll, dq512).noMask(),

	// Opmask instructions (VEX-encoded).
	fam("kmovw", "k, k/m16", "w,r", 0, lScalar, f512).vexEncoded(),
	fam("kmovw", "m16, k", "w,r", 0, lScalar, f512).vexEncoded(),
	fam("kmovw", "k, r32", "w,r", 0, lScalar, f512).vexEncoded(),
	fam("kmovw", "r32, k", "w,r", 0, lScalar, f512).vexEncoded(),
	fam("kmovb", "k, k/m8", "w,r", 0, lScalar, dq512).vexEncoded(),
	fam("kmovb", "m8, k", "w,r", 0, lScalar, dq512).vexEncoded(),
	fam("kmovb", "k, r32", "w,r", 0, lScalar, dq512).vexEncoded(),
	fam("kmovb", "r32, k", "w,r", 0, lScalar, dq512).vexEncoded(),
	fam("kmovd", "k, k/m32", "w,r", 0, lScalar, bw512).vexEncoded(),
	fam("kmovd", "m32, k", "w,r", 0, lScalar, bw512).vexEncoded(),
	fam("kmovd", "k, r32", "w,r", 0, lScalar, bw512).vexEncoded(),
	fam("kmovd", "r32, k", "w,r", 0, lScalar, bw512).vexEncoded(),
	fam("kmovq", "k, k/m64", "w,r", 0, lScalar, bw512).vexEncoded(),
	fam("kmovq", "m64, k", "w,r", 0, lScalar, bw512).vexEncoded(),
	fam("kmovq", "k, r64", "w,r", 0, lScalar, bw512).vexEncoded(),
	fam("kmovq", "r64, k", "w,r", 0, lScalar, bw512).vexEncoded(),
	fam("kandw kandnw korw kxorw kxnorw kunpckbw", "k, k, k", "w,r,r", 0, lScalar, f512).vexEncoded(),
	fam("kandb kandnb korb kxorb kxnorb kaddb kaddw", "k, k, k", "w,r,r", 0, lScalar, dq512).vexEncoded(),
	fam("kandd kandnd kord kxord kxnord kaddd kandq kandnq korq kxorq kxnorq kaddq kunpckwd kunpckdq",
		"k, k, k", "w,r,r", 0, lScalar, bw512).vexEncoded(),
	fam("knotw", "k, k", "w,r", 0, lScalar, f512).vexEncoded(),
	fam("knotb", "k, k", "w,r", 0, lScalar, dq512).vexEncoded(),
	fam("knotd knotq", "k, k", "w,r", 0, lScalar, bw512).vexEncoded(),
	fam("kortestw", "k, k", "r,r", 0, lScalar, f512).vexEncoded(),
	fam("kortestb ktestb ktestw", "k, k", "r,r", 0, lScalar, dq512).vexEncoded(),
	fam("kortestd kortestq ktestd ktestq", "k, k", "r,r", 0, lScalar, bw512).vexEncoded(),
	fam("kshiftlw kshiftrw", "k, k, i", "w,r,r", 0, lScalar, f512).vexEncoded(),
	fam("kshiftlb kshiftrb", "k, k, i", "w,r,r", 0, lScalar, dq512).vexEncoded(),
	fam("kshiftld kshiftrd kshiftlq kshiftrq", "k, k, i", "w,r,r", 0, lScalar, bw512).vexEncoded(),
}

// fmaNames lists the FMA mnemonics with a type suffix; packed adds
// vfmaddsub and vfmsubadd.
func fmaNames(suffix string, packed bool) string {
	ops := []string{"vfmadd", "vfmsub", "vfnmadd", "vfnmsub"}
	if packed {
		ops = append(ops, "vfmaddsub", "vfmsubadd")
	}
	var names []string
	for _, op := range ops {
		for _, ord := range []string{"132", "213", "231"} {
			names = append(names, op+ord+suffix)
		}
	}
	return strings.Join(names, " ")
}

// evexMeta is what instantiation needs to know about an EVEX form beyond its
// name: the width of its memory source, which fixes the broadcast count.
// Form.evex holds it for generated EVEX forms (zero for all others).
type evexMeta struct {
	vl   int // vector length in bits (128 for scalar forms)
	bits int // width in bits of the (broadcast) memory source
	elem int // broadcast element size in bits
}

// evexForms expands the families of one mnemonic (in table order).
// existing holds the mnemonic's other forms by name; an xmm/ymm form whose
// name exists there gets the {evex} prefix. It returns the new forms and
// the number of generated forms dropped because their name was already
// taken.
func evexForms(mn string, fams []*evexFamily, existing map[string]*Form) ([]*Form, int) {
	var out []*Form
	seen := map[string]bool{}
	dups := 0
	for _, fm := range fams {
		lens := []int{128}
		if fm.lens != lScalar {
			lens = nil
			for _, l := range []int{512, 256, 128} {
				if fm.lens&lenBit(l) != 0 {
					lens = append(lens, l)
				}
			}
		}
		for _, l := range lens {
			for _, f := range expandFamily(fm, mn, l) {
				name := f.Name()
				if f.Encoding == EVEX && !f.Operands[0].Masked {
					if g, ok := existing[name]; ok && g.Encoding != EVEX {
						f.EVEXPrefix = true
						name = f.Name()
					}
				}
				if seen[name] || existing[name] != nil {
					dups++
					continue
				}
				seen[name] = true
				out = append(out, f)
				if f.Encoding == EVEX {
					// A broadcast fills the memory operand: half the
					// vector for widening conversions.
					bits := l
					if strings.Contains(fm.ops, "h/m") {
						bits = l / 2
					}
					f.evex = evexMeta{vl: l, bits: bits, elem: fm.elem}
				}
			}
		}
	}
	return out, dups
}

func lenBit(l int) int {
	switch l {
	case 128:
		return l128
	case 256:
		return l256
	}
	return l512
}

func vecKind(bits int) Kind {
	switch bits {
	case 512:
		return KindZMM
	case 256:
		return KindYMM
	}
	return KindXMM
}

func memKind(bits int) Kind {
	switch bits {
	case 8:
		return KindM8
	case 16:
		return KindM16
	case 32:
		return KindM32
	case 64:
		return KindM64
	case 128:
		return KindM128
	case 256:
		return KindM256
	}
	return KindM512
}

func bcstKind(elem int) Kind {
	if elem == 64 {
		return KindM64B
	}
	return KindM32B
}

// evexOperand returns the kinds a template token stands for at vector
// length l.
func evexOperand(tok string, l, elem int) []Kind {
	half := l / 2
	halfReg := KindXMM
	if l == 512 {
		halfReg = KindYMM
	}
	switch tok {
	case "v":
		return []Kind{vecKind(l)}
	case "v/m":
		ks := []Kind{vecKind(l), memKind(l)}
		if elem > 0 {
			ks = append(ks, bcstKind(elem))
		}
		return ks
	case "h":
		return []Kind{halfReg}
	case "h/m":
		ks := []Kind{halfReg, memKind(half)}
		if elem > 0 {
			ks = append(ks, bcstKind(elem))
		}
		return ks
	case "dup":
		if l == 128 {
			return []Kind{KindXMM, KindM64}
		}
		return []Kind{vecKind(l), memKind(l)}
	case "m":
		return []Kind{memKind(l)}
	case "x":
		return []Kind{KindXMM}
	case "k":
		return []Kind{KindK}
	case "i":
		return []Kind{KindImm8}
	case "r32":
		return []Kind{KindR32}
	case "r64":
		return []Kind{KindR64}
	case "y/m256":
		return []Kind{KindYMM, KindM256}
	}
	if strings.HasPrefix(tok, "x/m") || strings.HasPrefix(tok, "k/m") {
		reg := KindXMM
		if tok[0] == 'k' {
			reg = KindK
		}
		return []Kind{reg, Kind(tok[2:])}
	}
	if strings.HasPrefix(tok, "m") {
		return []Kind{Kind(tok)}
	}
	return nil
}

// expandFamily returns the forms of one mnemonic of a family at vector
// length l: every operand combination, unmasked and masked.
func expandFamily(fm *evexFamily, mn string, l int) []*Form {
	toks := strings.Split(fm.ops, ", ")
	acc := strings.Split(fm.access, ",")
	alts := make([][]Kind, len(toks))
	for i, t := range toks {
		alts[i] = evexOperand(t, l, fm.elem)
	}
	var feats []string
	if fm.lens != lScalar && l < 512 {
		feats = append(feats, "avx512vl")
	}
	feats = append(feats, fm.feat)
	sort.Strings(feats)
	enc := EVEX
	if fm.enc == VEX {
		enc = VEX
	}
	var out []*Form
	var rec func(i int, kinds []Kind)
	rec = func(i int, kinds []Kind) {
		if i < len(alts) {
			for _, k := range alts[i] {
				rec(i+1, append(kinds[:i:i], k))
			}
			return
		}
		ops := make([]Operand, len(kinds))
		for j, k := range kinds {
			ops[j] = Operand{Kind: k, Access: parseAccess(acc[j])}
		}
		variants := [][2]bool{{false, false}}
		dest := kinds[0]
		switch fm.mask {
		case maskFull:
			variants = append(variants, [2]bool{true, false})
			if !dest.IsMemory() && dest != KindK {
				variants = append(variants, [2]bool{true, true})
			}
		case maskMerge:
			variants = append(variants, [2]bool{true, false})
		}
		if fm.enc == VEX {
			variants = variants[:1]
		}
		for _, v := range variants {
			f := &Form{
				Mnemonic: mn,
				Operands: append([]Operand(nil), ops...),
				Encoding: enc,
				Features: append([]string(nil), feats...),
				GNU:      gnuEVEX(fm, mn, kinds),
			}
			if v[0] {
				d := &f.Operands[0]
				d.Masked, d.Zeroing = true, v[1]
				switch {
				case v[1] || dest == KindK:
					// Zeroing, or a compare into k: the destination is written.
				case dest.IsMemory():
					d.Access = d.Access&Read | CondWrite
				default:
					d.Access = Read | CondWrite
				}
			}
			out = append(out, f)
		}
	}
	rec(0, nil)
	return out
}

// attLengthSuffixes are the suffixes an AT&T mnemonic takes to give the
// width of a memory source the xmm destination does not show (vcvtpd2psx,
// vcvtpd2psy), by the source's kind.
var attLengthSuffixes = map[Kind]string{KindM128: "x", KindM256: "y"}

// gnuEVEX returns the AT&T mnemonic of a generated form.
func gnuEVEX(fm *evexFamily, mn string, kinds []Kind) string {
	if !fm.suffix || kinds[0] != KindXMM {
		return mn
	}
	for _, k := range kinds[1:] {
		if s, ok := attLengthSuffixes[k]; ok {
			return mn + s
		}
	}
	return mn
}
