package selref

import (
	"encoding/json"
	"strings"
	"testing"
)

// Benchmark inputs: a typical feed reference, a dirty one that needs
// collapsing and cutting, and the wire path through the op adapter.
var (
	benchTypical = Reference{
		Label:    "From bed expansion to strengthening emergency services",
		VanceURI: "vance:/apps/newsfeed/_app.yaml?entry=hrafnagud%2F6928769",
		URL:      "https://mehrnews.com/news/6928769",
	}
	benchDirty = Reference{
		Label:    strings.Repeat("Breaking:\n\tnews \u00a0😀 ", 20),
		VanceURI: "  vance:/apps/newsfeed/_app.yaml?entry=a%2F1\n",
		URL:      "javascript:alert(1)",
	}
)

func BenchmarkIngest(b *testing.B) {
	for _, bc := range []struct {
		name string
		ref  Reference
	}{{"typical", benchTypical}, {"dirty", benchDirty}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Ingest(bc.ref); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkReplay(b *testing.B) {
	body := "Kannst du mehr dazu finden?"
	for _, bc := range []struct {
		name string
		ref  Reference
	}{{"typical", benchTypical}, {"dirty", benchDirty}, {"none", Reference{}}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Replay(body, bc.ref)
			}
		})
	}
}

func BenchmarkIngestOp(b *testing.B) {
	in, _ := json.Marshal(map[string]string{"label": benchTypical.Label, "vanceUri": benchTypical.VanceURI, "url": benchTypical.URL})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := callRaw(Ops["selref.ingest"], in); err != nil {
			b.Fatal(err)
		}
	}
}
