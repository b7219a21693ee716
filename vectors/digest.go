package vectors

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
)

// Digest returns "sha256:HEX", a digest of the vector files of fsys (every
// *.json file, as Load reads them): SHA-256 over, for each file in the
// lexical order of its slash-separated path, the path, a newline, the
// length in bytes in decimal, a newline and the bytes. Two corpora have the
// same digest exactly when they hold the same files with the same bytes, so
// two reports can tell whether they used the same vectors.
func Digest(fsys fs.FS) (string, error) {
	paths, walkErr := jsonFiles(fsys)
	h := sha256.New()
	for _, p := range paths {
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return "", fmt.Errorf("vectors: digest: %w", err)
		}
		fmt.Fprintf(h, "%s\n%d\n", p, len(data))
		h.Write(data)
	}
	if walkErr != nil {
		return "", fmt.Errorf("vectors: digest: %w", walkErr)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}
