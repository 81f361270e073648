//! Where the host walk is: the host function being walked (and whether it
//! is a routine), the enclosing blocks' closing braces, the data
//! environment (what the enclosing data constructs, compute regions and
//! local `declare`s map), and the standalone directives already handled.
//! (The scope of names is `scope`'s.)
//!
//! Owns: [`Place`]. May call: `ir::hostdata` (its [`Visible`]).

use crate::ir::hostdata::Visible;
use std::collections::HashSet;

/// The walk's position in host code.
#[derive(Default)]
pub struct Place {
    /// The host function being walked.
    function: String,
    /// The function being walked is a routine: its loop directives are
    /// compiled with its device version, not here.
    in_routine: bool,
    /// Where each enclosing compound statement's closing brace is (a local
    /// `declare`'s data region runs from the directive to there).
    block_ends: Vec<usize>,
    /// What each enclosing data region maps, innermost last: (variable, C
    /// expression of the section's start).
    data: Vec<Vec<Visible>>,
    /// Standalone directives already handled (pragma indices).
    standalone_done: HashSet<usize>,
}

impl Place {
    /// Enters the host function `name` (`in_routine`: it is a routine).
    pub fn enter_function(&mut self, name: String, in_routine: bool) {
        self.function = name;
        self.in_routine = in_routine;
    }

    /// The host function being walked.
    pub fn function(&self) -> &str {
        &self.function
    }

    /// Whether the function being walked is a routine.
    pub fn in_routine(&self) -> bool {
        self.in_routine
    }

    /// Enters a compound statement whose closing brace is at `end`: a data
    /// region of its own for the `declare`s in it.
    pub fn enter_block(&mut self, end: usize) {
        self.data.push(vec![]);
        self.block_ends.push(end);
    }

    /// Leaves the innermost compound statement.
    pub fn leave_block(&mut self) {
        self.block_ends.pop();
        self.data.pop();
    }

    /// Where the innermost enclosing compound statement's closing brace is.
    pub fn block_end(&self) -> Option<usize> {
        self.block_ends.last().copied()
    }

    /// Enters a data region that maps `visible`.
    pub fn enter_data(&mut self, visible: Vec<Visible>) {
        self.data.push(visible);
    }

    /// Leaves the innermost data region.
    pub fn leave_data(&mut self) {
        self.data.pop();
    }

    /// Adds what a local `declare` maps to the innermost region (its block).
    pub fn declare(&mut self, visible: Vec<Visible>) {
        if let Some(top) = self.data.last_mut() {
            top.extend(visible);
        }
    }

    /// What the innermost enclosing data region that maps `var` says of it.
    pub fn visible(&self, var: &str) -> Option<&Visible> {
        self.data.iter().rev().flatten().find(|v| v.var == var)
    }

    /// Marks standalone directive `p` handled; false if it already was.
    pub fn first_time(&mut self, p: usize) -> bool {
        self.standalone_done.insert(p)
    }
}
