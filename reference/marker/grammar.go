package marker

// The three delimiters of a marker, and the only family this suite knows.
const (
	Start  = '\uE200' // opens a marker
	Stop   = '\uE201' // closes a marker
	Delim  = '\uE202' // separates the fields of a marker
	Family = "cite"
)

// Bounds of the grammar, in runes. They bound what a streaming stripper
// ever holds back.
const (
	MaxIDLen      = 128 // runes of a source id (all ASCII)
	MaxLocatorLen = 256 // runes of a locator
	MaxLineDigits = 9   // digits of one line number in a marker's locator

	// MaxMarkerLen is the length of the longest valid marker.
	MaxMarkerLen = 1 + len(Family) + 1 + MaxIDLen + 1 + MaxLocatorLen + 1
	// MaxHold is the most runes a [Stream] holds back: a proper prefix of
	// the longest marker.
	MaxHold = MaxMarkerLen - 1
)

const (
	startS = "\uE200"
	delimS = "\uE202"
	// headLen is the byte length of START "cite" DELIM, where the id begins.
	headLen = len(startS) + len(Family) + len(delimS)
)

// effect is the effect of one rune on a marker candidate.
type effect uint8

const (
	more effect = iota // the candidate is still a proper prefix of some marker
	done               // the rune was the STOP of a valid marker
	dead               // the candidate with this rune is no marker prefix
)

type phase uint8

const (
	phFamily  phase = iota // reading "cite"; n runes matched
	phID                   // reading the id; n runes read
	phLoc                  // after the second DELIM: "/", "L" or STOP (empty locator) comes
	phPointer              // in a JSON Pointer
	phTilde                // after "~" in a JSON Pointer
	phLine1                // digits of the first line number; n read
	phDash                 // after "-": "L" comes
	phLine2                // digits of the second line number; n read
)

// machine recognises one marker, rune by rune, after its START. It holds no
// text: the caller keeps the candidate's bytes and asks idEnd and size.
type machine struct {
	ph    phase
	n     int // runes read in the current field
	loc   int // runes of the locator so far
	size  int // bytes of the candidate so far, START included
	idEnd int // byte offset, from START, of the end of the id (0 while reading it)
}

func newMachine() machine { return machine{size: len(startS)} }

// step feeds the rune r, encoded in size bytes, to the candidate.
func (m *machine) step(r rune, size int) effect {
	m.size += size
	switch m.ph {
	case phFamily:
		if m.n < len(Family) {
			if r == rune(Family[m.n]) {
				m.n++
				return more
			}
			return dead
		}
		if r == Delim {
			m.ph, m.n = phID, 0
			return more
		}
	case phID:
		switch {
		case isIDRune(r) && m.n < MaxIDLen:
			m.n++
			return more
		case r == Delim && m.n > 0:
			m.ph, m.idEnd = phLoc, m.size-size
			return more
		case r == Stop && m.n > 0:
			m.idEnd = m.size - size
			return done
		}
	case phLoc:
		m.loc = 1
		switch r {
		case Stop:
			return done // an empty locator: the whole part
		case '/':
			m.ph = phPointer
			return more
		case 'L':
			m.ph, m.n = phLine1, 0
			return more
		}
	case phPointer:
		if r == Stop {
			return done
		}
		if !pointerRune(r) || m.loc == MaxLocatorLen {
			return dead
		}
		m.loc++
		if r == '~' {
			m.ph = phTilde
		}
		return more
	case phTilde:
		if (r == '0' || r == '1') && m.loc < MaxLocatorLen {
			m.loc++
			m.ph = phPointer
			return more
		}
	case phLine1, phLine2:
		switch {
		case digitClass(r) && m.n < MaxLineDigits:
			m.n++
			m.loc++
			return more
		case r == Stop && m.n > 0:
			return done
		case r == '-' && m.ph == phLine1 && m.n > 0:
			m.ph = phDash
			m.loc++
			return more
		}
	case phDash:
		if r == 'L' {
			m.ph, m.n = phLine2, 0
			m.loc++
			return more
		}
	}
	return dead
}

// fields returns the id and the locator of a completed candidate: cand
// holds its bytes from START up to, and excluding, its STOP.
func (m *machine) fields(cand string) (id, locator string) {
	id = cand[headLen:m.idEnd]
	if m.idEnd+len(delimS) <= len(cand) {
		locator = cand[m.idEnd+len(delimS):]
	}
	return id, locator
}

// isDigit reports whether r is a digit of a line number: ASCII 0-9
// (MARKER-GRAMMAR-005).
func isDigit(r rune) bool { return r >= '0' && r <= '9' }

// isIDRune reports whether r may appear in a source id: A-Z a-z 0-9 _ -.
func isIDRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-'
}

// pointerRune reports whether r may appear in a JSON Pointer locator inside
// a marker: anything but a delimiter and a control character (Cc).
func pointerRune(r rune) bool {
	return !(r == Start || r == Stop || r == Delim || r < 0x20 || r >= 0x7f && r <= 0x9f)
}
