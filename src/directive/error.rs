//! The error type of the directive parser.

use std::fmt;

/// A syntax or validation error in a directive, at a byte offset into the
/// directive text. The message is gcc/clang style: lower case, names quoted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirectiveError {
    /// Byte offset into the directive text where the problem is.
    pub offset: usize,
    /// What is wrong.
    pub message: String,
}

impl DirectiveError {
    /// Makes an error at `offset`.
    pub fn new(offset: usize, message: impl Into<String>) -> Self {
        DirectiveError {
            offset,
            message: message.into(),
        }
    }
}

impl fmt::Display for DirectiveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for DirectiveError {}

/// The result type of the parser's pieces.
pub(crate) type PResult<T> = Result<T, DirectiveError>;
