package main

func init() {
	register("marker/artifact.gen.json", "marker.artifact",
		"The answer artifact as seed 001 shapes it: the text part with metadata.citations, then the cited data parts with metadata.dataPartId.", artifactCases)
}

// dataPart is a data part as seed 001 shapes it. Kind is a member the
// artifact passes through unchanged.
type dataPart struct {
	Data     map[string]any `json:"data"`
	Metadata partMetadata   `json:"metadata"`
	Kind     string         `json:"kind,omitempty"`
}

type partMetadata struct {
	DataPartID string `json:"dataPartId"`
	ToolName   string `json:"toolName,omitempty"`
}

func dp(id, tool string, value any) dataPart {
	return dataPart{Data: map[string]any{"value": value}, Metadata: partMetadata{id, tool}}
}

type textPart struct {
	Text     string `json:"text"`
	Metadata struct {
		Citations []cite `json:"citations"`
	} `json:"metadata"`
}

type artifactIn struct {
	Text  string `json:"text"`
	Parts []any  `json:"parts"`
}

// art is the expected artifact: the text part, then the data parts given.
func art(text string, cs []cite, parts ...any) any {
	var tp textPart
	tp.Text, tp.Metadata.Citations = text, cs
	return map[string]any{"artifact": map[string][]any{"parts": append([]any{tp}, parts...)}}
}

func artifactCases() []vec {
	a := func(n string) string { return "MARKER-ARTIFACT-" + n }
	pubmed := dp(t2, "pubmed_search", seedValue)
	limit := dp(t3, "medical_coding", map[string]any{"limit": "450 mg/m²"})
	unused := dp(t1, "pubmed_search", map[string]any{"unused": true})
	withKind := dp(t1, "", []any{1, "two", nil})
	withKind.Kind = "data"
	user := dp("user_data_1", "", "the user's note")
	return []vec{
		{id: "seed-example", desc: "Seed 001's example: the text part carries the citations, the cited parts follow with their GIDs",
			reqs: ids(a("001"), a("002"), a("003"), "MARKER-OFFSET-006"),
			in:   artifactIn{seedA + mk(t2, "/results/0/findings") + seedB + mk(t3) + ".", []any{unused, pubmed, limit}},
			out:  art(seedA+seedB+".", cites(c(t2, runes(seedA)+1, "/results/0/findings"), c(t3, runes(seedA+seedB)+1, "")), pubmed, limit)},
		{id: "no-citation", desc: "Without markers the artifact is the text part with empty citations and no data part",
			reqs: ids(a("001"), a("002")),
			in:   artifactIn{"Plain answer.", []any{unused}},
			out:  art("Plain answer.", cites())},
		{id: "input-order-not-citation-order", desc: "Cited parts follow the input order, each once, however often and in which order cited",
			reqs: ids(a("002")),
			in:   artifactIn{"B" + mk(t3) + " A" + mk(t2, "") + " B" + mk(t3, "/limit") + ".", []any{pubmed, limit, unused}},
			out:  art("B A B.", cites(c(t3, 1, ""), c(t2, 3, ""), c(t3, 6, "/limit")), pubmed, limit)},
		{id: "part-carried-unchanged", desc: "A data part with other members and a non-object value is carried unchanged",
			reqs: ids(a("003"), a("002")),
			in:   artifactIn{"Claim" + mk(t1, "/1") + ".", []any{withKind}},
			out:  art("Claim.", cites(c(t1, 6, "/1")), withKind)},
		{id: "user-origin-part-left-out", desc: "A user-origin part that a marker names is neither cited nor carried",
			reqs: ids(a("002"), "MARKER-STRIP-004"),
			in:   artifactIn{"As noted" + mk("user_data_1") + ", and" + mk(t1) + ".", []any{user, unused}},
			out:  art("As noted, and.", cites(c(t1, 14, "")), unused)},
		{id: "unknown-id-no-part", desc: "A marker naming no part is removed and carries nothing",
			reqs: ids(a("001"), a("002"), "MARKER-STRIP-003"),
			in:   artifactIn{"Claim" + mk("tool_data_99") + ".", []any{unused}},
			out:  art("Claim.", cites())},
		{id: "empty-locator-in-artifact", desc: "An empty-locator marker cites its whole part in the artifact",
			reqs: ids(a("001"), "MARKER-GRAMMAR-011"),
			in:   artifactIn{"Fact." + mk(t3, "") + " More.", []any{limit}},
			out:  art("Fact. More.", cites(c(t3, 5, "")), limit)},
		{id: "retry-instead-of-artifact", desc: "Only a user-origin part cited and no text: retry, no artifact",
			reqs: ids(a("004"), "MARKER-STRIP-010"),
			in:   artifactIn{mk("user_data_1") + "\n", []any{user, unused}},
			out:  map[string]bool{"retry": true}},
		{id: "empty-answer-without-markers", desc: "An empty answer without markers is an artifact with an empty text part, not a retry",
			reqs: ids(a("001"), a("004")),
			in:   artifactIn{"", []any{unused}},
			out:  art("", cites())},
		{id: "duplicate-data-part-id", desc: "Two data parts with one dataPartId are rejected",
			reqs: ids(a("005")),
			in:   artifactIn{"Claim" + mk(t1) + ".", []any{unused, withKind}},
			out:  reject("MARKER_DUPLICATE_PART_ID")},
	}
}
