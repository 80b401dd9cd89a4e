// SPDX-License-Identifier: MIT OR Apache-2.0

package tensorcast

// #include "tensorcast.h"
import "C"

import (
	"errors"
	"fmt"
)

// Status is a tensorcast status code (tcast_status): OK or one of the Err* values.
//
// A Status is also an error, so that errors.Is(err, tensorcast.ErrParse) reports
// whether err is (or wraps) an *Error with that status, in the way syscall.Errno
// works. The functions of this package return *Error, never a bare Status.
type Status int32

// The Status values (OK, ErrNullArgument, ...) are in tables_generated.go.

// String returns the C name of the status ("TCAST_ERR_PARSE"), from tcast_status_name;
// "unknown" for a value that is not a status.
func (s Status) String() string { return statusName(s) }

// Error returns the same text as String; it makes a Status usable as an errors.Is target.
func (s Status) Error() string { return s.String() }

// Error is the error every function of this package returns. Status, Index and Message
// are the fields of the C library's tcast_error. Errors detected by the Go binding
// before it calls the library (for example strides whose length differs from the
// shape's rank) use the same type, with Index -1.
type Error struct {
	Status  Status // why the call failed
	Index   int64  // the element the error is about (the first bad string of a parse), or -1
	Message string // the library's message: names the argument, dtypes, shapes and values
}

// Error returns "tensorcast: TCAST_ERR_PARSE: <message>".
func (e *Error) Error() string {
	return "tensorcast: " + e.Status.String() + ": " + e.Message
}

// Unwrap returns the Status, so that errors.Is(err, tensorcast.ErrParse) works.
func (e *Error) Unwrap() error { return e.Status }

// IsStatus reports whether err is, or wraps, an *Error with the given status.
func IsStatus(err error, s Status) bool { return errors.Is(err, s) }

func newError(s Status, format string, args ...any) *Error {
	return &Error{Status: s, Index: -1, Message: fmt.Sprintf(format, args...)}
}
