package fuzz

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/conform-suite/conform/spec"
)

// An OpDescriptor is what the fuzzer knows of one op, in one place: the
// fuzz engine, 'conform fuzzkit' and the coverage-guided target
// (fuzz/differential) read it, and tests hold every other list of ops (the
// reference's dispatch and hello, schemas/ops, spec/protocol.md's op table,
// the generators) to it.
type OpDescriptor struct {
	Op string
	// Tokens are the tokens of the op's formats, for the fuzz kit's
	// dictionary (with the characters of EdgeAlphabet).
	Tokens []string
	// Properties are the op's own properties a fuzz target checks, beside
	// commonProperties; NoProperties says why an op has none.
	Properties   []Property
	NoProperties string
	// NoDifferential says why FuzzDifferential does not fuzz the op;
	// empty when it does.
	NoDifferential string
}

// Classes returns the platform classes the op applies (spec.Class.Ops),
// sorted: its generator draws from their alphabets.
func (d OpDescriptor) Classes() []string { return opClasses()[d.Op] }

// opClasses maps an op to the classes that name it, from the tables, read
// once when first asked for (reading the tables takes a second).
var opClasses = sync.OnceValue(func() map[string][]string {
	classes, err := spec.PlatformClasses()
	if err != nil {
		panic(err) // the embedded tables are part of the program
	}
	out := map[string][]string{}
	for _, c := range classes {
		for _, op := range c.Ops {
			out[op] = append(out[op], c.ID)
		}
	}
	for _, ids := range out {
		slices.Sort(ids)
	}
	return out
})

// EdgeAlphabet returns the characters at the op's edges: every member,
// nearest non-member and disagreement point of its classes' alphabets
// that is a word or a single code point, with a long range of points
// (quote.json's) represented by its ends and middle, then the edges of the
// encodings (edgeRunes) and a lone surrogate's UTF-8-looking bytes.
func (d OpDescriptor) EdgeAlphabet() []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, id := range d.Classes() {
		a := alphabets()[id]
		for _, set := range []runeSet{a.points, a.members, a.near} {
			for _, g := range set {
				if g[1]-g[0] < 64 {
					for c := g[0]; c <= g[1]; c++ {
						add(string(c))
					}
					continue
				}
				add(string(g[0]))
				add(string(g[0] + (g[1]-g[0])/2))
				add(string(g[1]))
			}
		}
		for _, w := range slices.Concat(a.pointWords, a.memberWords, a.nearWords) {
			if w != "" {
				add(w)
			}
		}
	}
	for _, c := range edgeRunes {
		add(string(c))
	}
	add("\xed\xa0\x80") // a lone surrogate's UTF-8-looking bytes
	add("\xed\xbf\xbf")
	return out
}

// Descriptor returns the descriptor of op.
func Descriptor(op string) (OpDescriptor, bool) {
	i := slices.IndexFunc(opDescriptors, func(d OpDescriptor) bool { return d.Op == op })
	if i < 0 {
		return OpDescriptor{}, false
	}
	return opDescriptors[i], true
}

// Descriptors returns every op's descriptor, sorted by op.
func Descriptors() []OpDescriptor { return slices.Clone(opDescriptors) }

// The tokens of each suite's formats; the generators write the same syntax.
var (
	quoteTokens = []string{
		"t3-citation://v1/", "t3-citation:", "//v1/", "[Assistant quote](", ")", "](", "?", "&", "=", "/",
		"text=", "start=", "end=", "prefix=", "suffix=", "comment=", "&text=", "&start=", "&end=", "&prefix=", "&suffix=", "&comment=",
		"%", "%25", "%2F", "%20", "%3D", "%26", "%3F", "+", "%E2%80%A8", "%F0%9F%98%80", "%ED%A0%BD", "%C2%85",
		"0", "1", "9007199254740991", "9007199254740992", "-1", "1.5", "1e3",
		"#t3-citation=", "https://example.test/c", ".", "..",
		"Assistant quote", "<p>", "</p>", "<br>", "<math>", "<svg>", "&amp;", "&nbsp;",
	}
	navTokens     = []string{"assistant-citation=", "#", "#assistant-citation=", "dDMtY2l0YXRpb246Ly92MS9h", "=", "-", "_", "+", "/"}
	composeTokens = []string{"<assistant_citations>", "</assistant_citations>", "[assistant-quote-1]", "provider-turn", "pending-user-input",
		"Comment: ", "> Assistant quote:", "\n\n", "\\", "`", "*", "_", "#", "!", "|", "~"}
	markerTokens = []string{
		"\ue200", "\ue201", "\ue202", "\ue200cite\ue202", "cite", "filecite", "tool_data_01", "tool_data_02", "tool_data_",
		"user_data_", "user_text_", "L8", "L8-L13", "/", "/data/5/population", "~0", "~1", "/a~1b", "data", "metadata", "dataPartId", "value",
		".", ",", ")", "\u201d", "\u00bb", "!", "?",
	}
	selrefTokens = []string{
		"vance:", "vance:/", "vance://", "vance:/apps/links/_app.yaml?entry=", "http://", "https://", "javascript:", "data:", "file:",
		"?entry=", "#", "%3A", "%2F", "label", "vanceUri", "url", "[vance] This message pointed at: \"", "\u2026", " \u2014 ",
		"\u21b3 ", " \u00b7 ", "](", "\\[", "<", "&amp;",
	}
)

// opDescriptors is the one table of ops, sorted by op.
var opDescriptors = []OpDescriptor{
	{Op: "marker.artifact", Tokens: markerTokens, Properties: []Property{
		{"The artifact's first part is the text part, its text and citations what marker.strip gives for the same text, then each cited data part once, unchanged, in the input's order.", []string{"MARKER-ARTIFACT-001", "MARKER-ARTIFACT-002", "MARKER-ARTIFACT-003"}},
		{"Two data parts with the same metadata.dataPartId are refused (MARKER_DUPLICATE_PART_ID).", []string{"MARKER-ARTIFACT-005"}},
	}},
	{Op: "marker.locate", Tokens: markerTokens, Properties: []Property{
		{"The empty locator resolves to the whole value; a line range resolves only on a string, and an array index is 0 or an ASCII digit 1-9 followed by ASCII digits.", []string{"MARKER-LOCATE-001", "MARKER-LOCATE-004", "MARKER-LOCATE-006"}},
		{"A data_part_id of user origin is refused (MARKER_USER_ORIGIN) whatever the value and the locator.", []string{"MARKER-LOCATE-011"}},
	}},
	{Op: "marker.stream", Tokens: markerTokens, Properties: []Property{
		{"The output has one delta more than the input, and the deltas joined are the text marker.strip gives for the whole input.", []string{"MARKER-STREAM-001", "MARKER-STREAM-002"}},
	}},
	{Op: "marker.strip", Tokens: markerTokens, Properties: []Property{
		{"The output text holds no marker character (U+E200, U+E201, U+E202) that was part of a marker; every citation's offset is at most the output text's length in runes.", []string{"MARKER-STRIP-001", "MARKER-OFFSET-001"}},
		{"A valid marker's entry is kept with its locator verbatim, whether or not the locator resolves.", []string{"MARKER-LOCATE-009"}},
	}},
	{Op: "quote.collect", Tokens: quoteTokens, Properties: []Property{
		{"The answer is {citations: [...]}, an empty array when the text holds no valid link; each entry's source is the text between its start and end.", []string{"QUOTE-LINK-072"}},
	}},
	{Op: "quote.comment", Tokens: quoteTokens, Properties: []Property{
		{"The comment is trimmed of quote's white space; an empty trimmed comment removes the member; no other member of the citation changes.", []string{"QUOTE-COMPOSE-001", "QUOTE-COMPOSE-002", "QUOTE-COMPOSE-003"}},
	}},
	{Op: "quote.dom_text", Tokens: slices.Concat(quoteTokens, []string{"<div>", "</div>", "<li>", "<pre>", "<hr>", "<template>", " hidden", " aria-hidden=\"true\"", " role=\"button\"", " contenteditable", "&#x1F600;", "\r\n"}), Properties: []Property{
		{"An excluded element contributes nothing, its own start and end included; every text node's data is in the stream as the tree holds it.", []string{"QUOTE-ANCHOR-038", "QUOTE-ANCHOR-039"}},
	}},
	{Op: "quote.expand", Tokens: slices.Concat(quoteTokens, composeTokens), Properties: []Property{
		{"A prompt without a valid link comes back unchanged, code unit for code unit, without a block.", []string{"QUOTE-COMPOSE-010"}},
		{"In the block's data no <, > or & is left: each is written \\u003c, \\u003e or \\u0026.", []string{"QUOTE-COMPOSE-017"}},
	}},
	{Op: "quote.format", Tokens: quoteTokens, Properties: []Property{
		{"Every href the formatter writes parses back to the citation it was given.", []string{"QUOTE-LINK-015"}},
	}},
	{Op: "quote.markdown", Tokens: slices.Concat(quoteTokens, composeTokens), Properties: []Property{
		{"A prompt without a valid link is rendered as itself.", []string{"QUOTE-COMPOSE-041"}},
	}},
	{Op: "quote.nav_decode", Tokens: slices.Concat(quoteTokens, navTokens), Properties: []Property{
		{"A location without # is refused (QUOTE_NAV_NO_FRAGMENT), a fragment not beginning with the exact assistant-citation= is refused (QUOTE_NAV_PREFIX), a payload that is not base64url is refused (QUOTE_NAV_BASE64).", []string{"QUOTE-COMPOSE-052", "QUOTE-COMPOSE-053", "QUOTE-COMPOSE-055"}},
		{"Decoding a location ending in # and the hash quote.nav_encode gives for a citation gives the citation back.", []string{"QUOTE-COMPOSE-057"}},
	}},
	{Op: "quote.nav_encode", Tokens: slices.Concat(quoteTokens, navTokens), Properties: []Property{
		{"The hash is assistant-citation= and the base64url encoding, without padding, of the citation's href; a long hash is never a reason to refuse.", []string{"QUOTE-COMPOSE-050", "QUOTE-COMPOSE-051"}},
	}},
	{Op: "quote.nav_history", Tokens: []string{"cursors", "source_page", "c0", "c1", "0", "1", "19", "20", "21"}, Properties: []Property{
		{"The answer is {pages, stop, warning} for every history of cursors, whatever strings the cursors are.", []string{"QUOTE-COMPOSE-077"}},
	}},
	{Op: "quote.normalize", Tokens: quoteTokens, Properties: []Property{
		{"Each maximal run of quote's white space becomes one U+0020, nothing is trimmed, and every other code unit stays as it is: no case folding, no Unicode normalization.", []string{"QUOTE-ANCHOR-004", "QUOTE-ANCHOR-005"}},
	}},
	{Op: "quote.parse", Tokens: quoteTokens, Properties: []Property{
		{"An href longer than 160,000 UTF-16 code units is refused (QUOTE_HREF_TOO_LONG), whatever else is wrong with it.", []string{"QUOTE-LINK-022"}},
		{"An accepted citation keeps the limits: each id at most 512 units once trimmed, text and comment at most 8,000, prefix and suffix at most 32, 0 <= start < end <= 2^53-1.", []string{"QUOTE-LINK-039", "QUOTE-LINK-041", "QUOTE-LINK-043", "QUOTE-LINK-045", "QUOTE-LINK-046", "QUOTE-LINK-047"}},
		{"format(parse(href)) parses back to the same citation: for every citation a formatter accepts, parsing its href gives it back, member for member.", []string{"QUOTE-LINK-015"}},
		{"The order of the query fields does not change the answer.", []string{"QUOTE-LINK-035"}},
	}},
	{Op: "quote.plaintext", Tokens: slices.Concat(quoteTokens, composeTokens), Properties: []Property{
		{"A prompt without a valid link is rendered as itself.", []string{"QUOTE-COMPOSE-041"}},
	}},
	{Op: "quote.resolve", Tokens: quoteTokens, Properties: []Property{
		{"A quote that is empty or white space only is not_found; two or more context-matching occurrences are ambiguous, even when one lies at the saved offsets.", []string{"QUOTE-ANCHOR-025", "QUOTE-ANCHOR-029"}},
	}},
	{Op: "quote.select", Tokens: quoteTokens, Properties: []Property{
		{"A refusal carries the code of the first rule that applies, in the order out of range, reversed, empty, splitting a surrogate pair, blank, too long.", []string{"QUOTE-ANCHOR-016"}},
		{"The selector's text is the excerpt as it stands in the text; its prefix and suffix are at most 32 code units.", []string{"QUOTE-ANCHOR-017", "QUOTE-ANCHOR-021"}},
	}},
	{Op: "quote.send_turn", Tokens: slices.Concat(quoteTokens, composeTokens), Properties: []Property{
		{"An answer to a pending user-input request is sent as written, code unit for code unit, never expanded nor refused for its length.", []string{"QUOTE-COMPOSE-036"}},
		{"A provider turn is trimmed first and refused when then empty (QUOTE_INPUT_EMPTY) or over 120,000 units (QUOTE_INPUT_TOO_LONG), before anything is expanded.", []string{"QUOTE-COMPOSE-034"}},
	}},
	{Op: "quote.submit_check", Tokens: slices.Concat(quoteTokens, composeTokens), Properties: []Property{
		{"An answer to a pending user-input request is never blocked, whatever its length.", []string{"QUOTE-COMPOSE-033"}},
		{"A provider turn is blocked exactly when the larger of the trimmed prompt's length and its expansion's is over 120,000 units.", []string{"QUOTE-COMPOSE-031"}},
	}},
	{Op: "selref.bubble", Tokens: selrefTokens, Properties: []Property{
		{"When ingest drops the reference the output is the empty string; otherwise it begins with U+21B3 and a space.", []string{"SELREF-BUBBLE-001", "SELREF-BUBBLE-002"}},
	}},
	{Op: "selref.ingest", Tokens: selrefTokens, Properties: []Property{
		{"An accepted reference's label is at most 201 units long and its addresses pass the gates; a member that is absent, null or not a string is treated alike.", []string{"SELREF-INGEST-001", "SELREF-LABEL-006"}},
		{"A url holding an address control after trimming is refused; the trim characters are removed from both ends of each address before any check.", []string{"SELREF-URL-001", "SELREF-URL-002", "SELREF-VANCE-001"}},
	}},
	{Op: "selref.replay", Tokens: selrefTokens, Properties: []Property{
		{"A reference that is absent, null or not an object is ignored; when ingest drops the stored reference the output is the body, byte for byte.", []string{"SELREF-REPLAY-002", "SELREF-REPLAY-003"}},
	}},
}

// Generate returns an input of op made by its generator, its random
// choices taken from data: the first bytes decide the first choices, as a
// coverage-guided fuzzer's bytes should, and once they are used up the
// choices go on from a source seeded with all of them. FuzzDifferential
// fills its inputs with it.
func Generate(op string, data []byte) ([]byte, error) {
	gen := inputGens[op]
	if gen == nil {
		return nil, fmt.Errorf("fuzz: op %q has no input generator", op)
	}
	h := fnv.New64a()
	h.Write(data)
	src := &byteSource{data: data, rest: rand.NewPCG(h.Sum64(), uint64(len(data)))}
	return encode(gen(rand.New(src))), nil
}

// byteSource is a rand.Source that reads its values from a fuzzer's bytes,
// eight at a time, then from rest.
type byteSource struct {
	data []byte
	rest *rand.PCG
}

func (s *byteSource) Uint64() uint64 {
	if len(s.data) == 0 {
		return s.rest.Uint64()
	}
	var b [8]byte
	n := copy(b[:], s.data)
	s.data = s.data[n:]
	return binary.LittleEndian.Uint64(b[:])
}
