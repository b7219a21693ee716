package reference

import (
	"errors"
	"reflect"
	"testing"

	"github.com/conform-suite/conform/reference/marker"
	"github.com/conform-suite/conform/reference/quote"
	"github.com/conform-suite/conform/reference/selref"
)

// TestOneErrorShape: each package of the reference has one error type, of
// one shape (STYLE practice 2): a stable Code of the package's own string
// type, an Offset and a Path saying where, and the cause in Err, which
// Unwrap returns.
func TestOneErrorShape(t *testing.T) {
	cause := errors.New("cause")
	for _, err := range []interface {
		error
		Unwrap() error
	}{
		&quote.Error{Code: quote.CodeScheme, Offset: -1, Err: cause},
		&marker.Error{Code: marker.CodeInvalidUTF8, Offset: 3, Err: cause},
		&selref.Error{Code: selref.CodeNoAddress, Offset: -1, Err: cause},
	} {
		typ := reflect.TypeOf(err).Elem()
		var names []string
		for i := range typ.NumField() {
			names = append(names, typ.Field(i).Name)
		}
		if !reflect.DeepEqual(names, []string{"Code", "Offset", "Path", "Err"}) {
			t.Errorf("%s has the fields %v, want Code, Offset, Path, Err", typ, names)
		}
		if k := typ.Field(0).Type.Kind(); k != reflect.String || typ.Field(0).Type.Name() != "Code" {
			t.Errorf("%s.Code is a %s, want the package's Code string type", typ, typ.Field(0).Type)
		}
		if !errors.Is(err, cause) {
			t.Errorf("%T does not unwrap to its cause", err)
		}
	}
}
