package marker

import (
	"errors"
	"strings"
	"testing"
)

// Unit tests of what the vectors cannot see: the snap set class by class,
// the user-origin rule, error values, byte carry-over, allocations and the
// memory bound. The vectors (runner/reference_test.go) and the properties
// (fuzz/marker_test.go) cover the ops end to end.

func TestSnaps(t *testing.T) {
	tests := []struct {
		r    rune
		want bool
		why  string
	}{
		{'.', true, "Po"}, {',', true, "Po"}, {'!', true, "Po"}, {'?', true, "Po"}, {'"', true, "Po"},
		{'\'', true, "Po"}, {'*', true, "Po"}, {'…', true, "Po"}, {'。', true, "Po"}, {'，', true, "Po"},
		{')', true, "Pe"}, {']', true, "Pe"}, {'}', true, "Pe"}, {'」', true, "Pe"}, {'）', true, "Pe"},
		{'”', true, "Pf"}, {'’', true, "Pf"}, {'»', true, "Pf"},
		{'(', false, "Ps"}, {'[', false, "Ps"}, {'「', false, "Ps"}, {'“', false, "Pi"}, {'«', false, "Pi"},
		{'-', false, "Pd"}, {'—', false, "Pd"}, {'_', false, "Pc"},
		{'¡', false, "inverted"}, {'¿', false, "inverted"}, {'⸘', false, "inverted"},
		{' ', false, "Zs"}, {'\n', false, "Cc"}, {'a', false, "L"}, {'5', false, "Nd"}, {'$', false, "Sc"},
		{Start, false, "Co"}, {Delim, false, "Co"}, {'\uFFFD', false, "So"},
	}
	for _, tt := range tests {
		if got := Snaps(tt.r); got != tt.want {
			t.Errorf("Snaps(%q) = %v, want %v (%s)", tt.r, got, tt.want, tt.why)
		}
	}
}

func TestUserOrigin(t *testing.T) {
	tests := []struct {
		id   string
		want bool
	}{
		{"user_data_1", true}, {"user_text_x", true}, {"USER_DATA_1", true}, {"User_Text_", true},
		{"user_data_", true}, {"user_data", false}, {"user_data1", false}, {"my_user_data_1", false},
		{"tool_data_01", false}, {"", false},
	}
	for _, tt := range tests {
		if got := UserOrigin(tt.id); got != tt.want {
			t.Errorf("UserOrigin(%q) = %v, want %v", tt.id, got, tt.want)
		}
	}
}

func TestErrorsCarryCodes(t *testing.T) {
	_, err := NewCatalog([]string{"a", "b", "a"})
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeDuplicatePartID {
		t.Errorf("NewCatalog(a, b, a) = %v, want code %s", err, CodeDuplicatePartID)
	}
	for _, loc := range []string{"l8", "#/a", "/a~2", "L8-13", "L"} {
		got, err := Locate([]byte(`{}`), loc)
		if err != nil || got.Resolved || !got.Malformed {
			t.Errorf("Locate({}, %q) = %+v, %v, want the malformed fallback without error", loc, got, err)
		}
	}
	b := NewByteStream(nil)
	if _, err := b.Write([]byte("ok\xffx")); !errors.As(err, &e) || e.Code != CodeInvalidUTF8 || e.Offset != 2 {
		t.Errorf("ByteStream.Write(ok\\xffx) = %v, want code %s at byte 2", err, CodeInvalidUTF8)
	}
	if !strings.HasPrefix(e.Error(), "marker: ") {
		t.Errorf("Error() = %q, want the package prefix", e.Error())
	}
}

func TestIncompleteTail(t *testing.T) {
	tests := []struct {
		in   string
		want int
	}{
		{"", 0}, {"a", 0}, {"\xEE", 1}, {"a\xEE\x88", 2}, {"\uE200", 0}, {"a\xF0\x9F\x98", 3},
		{"\xF0\x9F\x98\x80", 0}, {"\x80", 0}, {"a\xFF", 0}, {"\xED\xA0", 0},
	}
	for _, tt := range tests {
		if got := incompleteTail([]byte(tt.in)); got != tt.want {
			t.Errorf("incompleteTail(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestStreamMarkerFreeDeltaAllocatesNothing(t *testing.T) {
	cat, _ := NewCatalog([]string{"a"})
	s := NewStream(cat)
	s.Write("Claim" + "\uE200cite\uE202a\uE201") // a pending citation snaps on the next delta
	for _, delta := range []string{".)", "plain prose, 引用 and 😀 ", ""} {
		if n := testing.AllocsPerRun(100, func() { s.Write(delta) }); n != 0 {
			t.Errorf("Stream.Write(%q) allocates %v times, want 0", delta, n)
		}
	}
}

func TestStreamMemoryBounded(t *testing.T) {
	s := NewStream(nil)
	garbage := "\uE200cite\uE202" + strings.Repeat("x", MaxIDLen) + "\uE202/" + strings.Repeat("😀", MaxLocatorLen-1)
	most := 0
	for range 200 {
		for _, r := range garbage {
			s.Write(string(r))
			most = max(most, s.Held())
		}
		s.Write("😀") // kills the candidate at its bound
	}
	if most != MaxHold {
		t.Errorf("most runes held = %d, want the bound %d", most, MaxHold)
	}
	if cap(s.hold) > maxHoldBytes {
		t.Errorf("hold buffer grew to %d bytes, bound %d", cap(s.hold), maxHoldBytes)
	}
	if tail, _, _ := s.Close(); tail != "" {
		t.Errorf("Close() = %q, want nothing held", tail)
	}
	if got := s.Write("late"); got != "" {
		t.Errorf("Write after Close = %q, want \"\"", got)
	}
}
