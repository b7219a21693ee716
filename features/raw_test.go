package features

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// HTTPRaw follows the runner's rules: a redirect is not followed, a
// compressed answer is not inflated.
func TestHTTPRawRules(t *testing.T) {
	var reached atomic.Int64
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
		w.Write([]byte(`{"id":1,"output":{}}`))
	}))
	defer other.Close()
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/moved", http.StatusTemporaryRedirect)
	}))
	defer redirect.Close()
	gzipped := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ae := r.Header.Get("Accept-Encoding"); ae != "identity" {
			t.Errorf("Accept-Encoding %q, want identity", ae)
		}
		w.Header().Set("Content-Encoding", "gzip")
		w.Write([]byte("\x1f\x8b not really"))
	}))
	defer gzipped.Close()
	for _, c := range []struct {
		url, want string
		client    *http.Client
	}{
		{redirect.URL, "307 Temporary Redirect to " + other.URL + "/moved: redirects are not followed", nil},
		{redirect.URL, "redirects are not followed", &http.Client{}},
		{gzipped.URL, "Content-Encoding gzip", nil},
	} {
		out, _, err := HTTPRaw{URL: c.url, Client: c.client}.Exchange(context.Background(), []byte(`{"id":1,"op":"hello","input":{"protocol":1}}`+"\n"))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Exchange(%s) = %q, %v; want an error saying %q", c.url, out, err, c.want)
		}
	}
	if n := reached.Load(); n != 0 {
		t.Errorf("the server redirected to got %d requests, want none", n)
	}
}
