package quote

import (
	"slices"
	"strconv"

	"github.com/conform-suite/conform/protocol"
)

// AppendJSON appends the output of quote.parse as encoding/json.Marshal
// writes it (opkit.Appender).
func (o parseOutput) AppendJSON(buf []byte) []byte {
	c := &o.Citation
	n := len(c.EnvironmentID) + len(c.ThreadID) + len(c.MessageID) + len(c.Text) + len(c.Prefix) + len(c.Suffix)
	if c.Comment != nil {
		n += len(*c.Comment)
	}
	buf = slices.Grow(buf, n+160) // the text unescaped, the names and numbers
	buf = append(buf, `{"citation":`...)
	buf = o.Citation.appendJSON(buf)
	return append(buf, '}')
}

// appendJSON appends c as encoding/json.Marshal writes it: the fields in
// declaration order, comment omitted when nil.
func (c *Citation) appendJSON(buf []byte) []byte {
	buf = append(buf, `{"version":`...)
	buf = strconv.AppendInt(buf, int64(c.Version), 10)
	buf = append(buf, `,"environmentId":`...)
	buf = protocol.AppendQuoted(buf, c.EnvironmentID)
	buf = append(buf, `,"threadId":`...)
	buf = protocol.AppendQuoted(buf, c.ThreadID)
	buf = append(buf, `,"messageId":`...)
	buf = protocol.AppendQuoted(buf, c.MessageID)
	buf = append(buf, `,"text":`...)
	buf = protocol.AppendQuoted(buf, c.Text)
	if c.Comment != nil {
		buf = append(buf, `,"comment":`...)
		buf = protocol.AppendQuoted(buf, *c.Comment)
	}
	buf = append(buf, `,"start":`...)
	buf = strconv.AppendInt(buf, c.Start, 10)
	buf = append(buf, `,"end":`...)
	buf = strconv.AppendInt(buf, c.End, 10)
	buf = append(buf, `,"prefix":`...)
	buf = protocol.AppendQuoted(buf, c.Prefix)
	buf = append(buf, `,"suffix":`...)
	buf = protocol.AppendQuoted(buf, c.Suffix)
	return append(buf, '}')
}
