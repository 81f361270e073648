//! What the host walk produces: the IR module (its kernels and device
//! functions), the host plan, the remarks (`-Minfo=accel`) and the errors,
//! with the names declared by code accc could not parse (an error naming
//! one gets a note saying why).
//!
//! Owns: [`Output`]; the walk adds to it only through its methods and takes
//! the result with [`Output::finish`]. May call: `ir`, `diag`.

use crate::diag::{DResult, Diagnostic, Diagnostics, Severity};
use crate::ir::host::{Construct, GlobalDeclare, HostPlan};
use crate::ir::{Cell, DeviceFunction, Kernel, Module, Remark, SrcLoc};
use std::collections::{HashMap, HashSet};

/// What [`Output::finish`] gives: the module and the remarks.
pub type Finished = (Module, Vec<(SrcLoc, Remark)>);

/// The module, host plan, remarks and errors of one translation unit, as
/// the walk builds them.
pub struct Output {
    module: Module,
    plan: HostPlan,
    remarks: Vec<(SrcLoc, Remark)>,
    errors: Vec<Diagnostic>,
    /// The names declared by declarations accc could not parse (or whose
    /// type it could not work out): where, and why.
    opaque: HashMap<String, (SrcLoc, String)>,
}

impl Output {
    /// An empty output for the source file `main_file`.
    pub fn new(main_file: &str) -> Self {
        Output {
            module: Module {
                source: main_file.to_string(),
                kernels: vec![],
                functions: vec![],
                cells: vec![],
                host: HostPlan::default(),
                scheduled: false,
            },
            plan: HostPlan::default(),
            remarks: vec![],
            errors: vec![],
            opaque: HashMap::new(),
        }
    }

    /// Records the errors of a failed step and goes on.
    pub fn report<T>(&mut self, r: DResult<T>) -> Option<T> {
        match r {
            Ok(v) => Some(v),
            Err(d) => {
                self.errors.extend(d.0);
                None
            }
        }
    }

    /// Records one error.
    pub fn error(&mut self, d: Diagnostic) {
        self.errors.push(d);
    }

    /// Records errors.
    pub fn errors(&mut self, d: Diagnostics) {
        self.errors.extend(d.0);
    }

    /// Records a remark at `loc`.
    pub fn remark(&mut self, loc: SrcLoc, r: Remark) {
        self.remarks.push((loc, r));
    }

    /// The index the next kernel added will have.
    pub fn next_kernel(&self) -> usize {
        self.module.kernels.len()
    }

    /// Adds a kernel (its index: [`Self::next_kernel`] before).
    pub fn add_kernel(&mut self, k: Kernel) {
        self.module.kernels.push(k);
    }

    /// Sets the device functions and global cells of the module (once the
    /// routines are compiled).
    pub fn set_device_code(&mut self, functions: Vec<DeviceFunction>, cells: Vec<Cell>) {
        self.module.functions = functions;
        self.module.cells = cells;
    }

    /// Adds a construct to the host plan where its statement belongs.
    pub fn construct(&mut self, c: Construct) {
        self.plan.insert(c);
    }

    /// Adds a global a file-scope `declare` registers with the runtime.
    pub fn declare_global(&mut self, g: GlobalDeclare) {
        self.plan.declares.push(g);
    }

    /// Remembers that `name` is declared by code accc cannot parse (or
    /// type): where, and why.
    pub fn opaque_name(&mut self, name: String, loc: SrcLoc, why: String) {
        self.opaque.insert(name, (loc, why));
    }

    /// The module (its host plan in place) and the remarks in the order
    /// they were made, or the errors: one per place and message, each naming an opaque
    /// declaration's name noted with why accc does not know it.
    pub fn finish(mut self) -> DResult<Finished> {
        if !self.errors.is_empty() {
            self.note_opaque_names();
            // One message per place (a statement lowered for the device and
            // rewritten for the host reports its problem once).
            let mut seen = HashSet::new();
            self.errors.retain(|d| {
                seen.insert((
                    d.loc.as_ref().map(|l| (l.line, l.col, l.file.clone())),
                    d.message.clone(),
                ))
            });
            return Err(Diagnostics(self.errors));
        }
        let mut module = self.module;
        module.host = self.plan;
        Ok((module, self.remarks))
    }

    /// Adds to each error that names (in quotes) something declared by a
    /// declaration accc could not parse a note saying so, with the reason.
    fn note_opaque_names(&mut self) {
        for e in &mut self.errors {
            let quoted = e.message.split('\'').skip(1).step_by(2);
            let found = quoted
                .filter_map(|n| self.opaque.get(n).map(|o| (n.to_string(), o.clone())))
                .next();
            if let Some((name, (loc, why))) = found {
                e.notes.push(Diagnostic {
                    severity: Severity::Note,
                    loc: Some(loc),
                    message: format!(
                        "'{name}' is declared in code accc cannot parse (only the host compiler compiles it): {why}"
                    ),
                    notes: vec![],
                });
            }
        }
    }
}
