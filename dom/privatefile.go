package dom

import (
	"fmt"
	"io/fs"
	"os"
)

// PrivateMode is the mode of every file domscope writes. Recordings,
// scripts, screenshots, views and exports hold what a page showed, so
// only their owner may read them.
const PrivateMode fs.FileMode = 0o600

// CreatePrivate creates or empties path for writing, readable by its owner
// only. An existing file is narrowed to PrivateMode before it is emptied.
// So a file that cannot be made private keeps what it held.
func CreatePrivate(path string) (*os.File, error) {
	f, err := openPrivate(path, os.O_WRONLY|os.O_CREATE)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		if err := f.Truncate(0); err != nil {
			f.Close()
			return nil, err
		}
	}
	return f, nil
}

// AppendPrivate opens path for appending, as CreatePrivate does. It keeps
// what the file holds.
func AppendPrivate(path string) (*os.File, error) {
	return openPrivate(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND)
}

// WritePrivate writes b to path, readable by its owner only.
func WritePrivate(path string, b []byte) error {
	f, err := CreatePrivate(path)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// openPrivate opens path with flag and narrows a regular file to
// PrivateMode. Devices and pipes (--out /dev/stdout) are left as they are.
func openPrivate(path string, flag int) (*os.File, error) {
	f, err := os.OpenFile(path, flag, PrivateMode)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if fi.Mode().IsRegular() && fi.Mode().Perm() != PrivateMode {
		if err := f.Chmod(PrivateMode); err != nil {
			f.Close()
			return nil, fmt.Errorf("%s is readable by others and cannot be made private (%w): remove it or write elsewhere", path, err)
		}
	}
	return f, nil
}
