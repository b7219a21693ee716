package vectors

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"path"
)

// Digest returns "sha256:HEX", a digest of the vector files of fsys (every
// *.json file, as Load reads them): SHA-256 over, for each file in the
// lexical order of its slash-separated path, the path, a newline, the
// length in bytes in decimal, a newline and the bytes. Two corpora have the
// same digest exactly when they hold the same files with the same bytes, so
// two reports can tell whether they used the same vectors.
func Digest(fsys fs.FS) (string, error) {
	h := sha256.New()
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || path.Ext(p) != ".json" {
			return nil
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s\n%d\n", p, len(data))
		h.Write(data)
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("vectors: digest: %w", err)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}
