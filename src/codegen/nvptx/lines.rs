//! Line information of the device code (`-g`, `-gpu=lineinfo`): LLVM debug
//! info that the NVPTX back end turns into PTX `.file`/`.loc` directives,
//! and ptxas (`-lineinfo`) into the cubin's line table, which
//! compute-sanitizer, cuda-gdb and Nsight Compute read.
//!
//! Owns: [`Lines`] (the module's `DICompileUnit`, its `DIFile`s, the module
//! flags) and [`Scope`] (one function's `DISubprogram` and the
//! `DILocation`s of its statements). Shapes:
//! * one compile unit, named after the module's source, of emission kind
//!   `DebugDirectivesOnly` (what clang gives NVPTX for optimised code), for
//!   `-g` too: the `.file`/`.loc` directives and nothing else. Line tables
//!   only or full debug info make LLVM mark the PTX `.target …, debug`
//!   and write `.debug_info`, which ptxas refuses in optimised code
//!   ("Optimized debugging not supported": only `ptxas -g`, no
//!   optimisation, takes it, as nvcc `-G` does); accc compiles optimised
//!   device code with line numbers, as nvcc `-lineinfo`. The C API's enum
//!   of emission kinds lacks that kind, hence the raw builder calls here
//!   (inkwell's debug-info builder makes its compile unit through that
//!   enum) and [`create_compile_unit`];
//! * DWARF version 2 (what ptxas reads, as clang has it for NVPTX);
//! * a `DISubprogram` per kernel and device function at its construct's or
//!   routine's line; a statement's location is [`Function::stmt_loc`] (a
//!   location in another file than its function's, a header's, is scoped
//!   by a lexical block of that file);
//! * file names as the user named them (the preprocessor's line markers),
//!   relative ones with the compiler's working directory.
//!
//! May call: `ir` (for [`SrcLoc`]).
//!
//! [`Function::stmt_loc`]: crate::ir::Function::stmt_loc

use crate::ir::SrcLoc;
use inkwell::context::Context;
use inkwell::llvm_sys::debuginfo as di;
use inkwell::llvm_sys::prelude::{LLVMDIBuilderRef, LLVMMetadataRef};
use inkwell::module::{FlagBehavior, Module};
use inkwell::values::{AsValueRef, FunctionValue};
use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::c_char;

/// `DICompileUnit::DebugDirectivesOnly`.
const DEBUG_DIRECTIVES_ONLY: u32 = 3;

extern "C" {
    /// `LLVMDIBuilderCreateCompileUnit` of llvm-c/DebugInfo.h, with the
    /// emission kind as the integer the C++ side casts it to: llvm-sys's
    /// Rust enum has no `DebugDirectivesOnly` value (making one would be
    /// undefined behaviour).
    #[link_name = "LLVMDIBuilderCreateCompileUnit"]
    fn create_compile_unit(
        builder: LLVMDIBuilderRef,
        lang: di::LLVMDWARFSourceLanguage,
        file: LLVMMetadataRef,
        producer: *const c_char,
        producer_len: usize,
        is_optimized: i32,
        flags: *const c_char,
        flags_len: usize,
        runtime_ver: u32,
        split_name: *const c_char,
        split_name_len: usize,
        kind: u32,
        dwo_id: u32,
        split_debug_inlining: i32,
        debug_info_for_profiling: i32,
        sysroot: *const c_char,
        sysroot_len: usize,
        sdk: *const c_char,
        sdk_len: usize,
    ) -> LLVMMetadataRef;
}

/// The debug-info builder of one LLVM module and what its functions share.
/// Dropped before the module (it finalises into it).
pub(super) struct Lines<'c> {
    ctx: &'c Context,
    di: LLVMDIBuilderRef,
    cu: LLVMMetadataRef,
    /// The `DIFile` of each file name met so far.
    files: RefCell<HashMap<String, LLVMMetadataRef>>,
    /// The working directory, for relative file names.
    dir: String,
    optimized: bool,
    finished: std::cell::Cell<bool>,
}

impl<'c> Lines<'c> {
    /// Line information for `module`, whose source is `source`;
    /// `optimized`: the pipeline optimises (recorded in the compile unit).
    pub fn new(ctx: &'c Context, module: &Module<'c>, source: &str, optimized: bool) -> Self {
        let i32_ = ctx.i32_type();
        // SAFETY: no arguments.
        let version = unsafe { di::LLVMDebugMetadataVersion() };
        module.add_basic_value_flag(
            "Debug Info Version",
            FlagBehavior::Warning,
            i32_.const_int(version.into(), false),
        );
        module.add_basic_value_flag(
            "Dwarf Version",
            FlagBehavior::Warning,
            i32_.const_int(2, false),
        );
        let dir = std::env::current_dir()
            .map(|d| d.to_string_lossy().into_owned())
            .unwrap_or_default();
        let producer = concat!("accc ", env!("CARGO_PKG_VERSION"));
        // SAFETY: a live module; the builder is disposed in `drop`.
        let builder = unsafe { di::LLVMCreateDIBuilder(module.as_mut_ptr()) };
        let mut lines = Lines {
            ctx,
            di: builder,
            cu: std::ptr::null_mut(),
            files: RefCell::new(HashMap::new()),
            dir,
            optimized,
            finished: std::cell::Cell::new(false),
        };
        let file = lines.file(source);
        let empty = std::ptr::null::<c_char>();
        // SAFETY: a live builder and file; the strings live for the call
        // (with their lengths); `kind` is a valid `DebugEmissionKind`.
        lines.cu = unsafe {
            create_compile_unit(
                builder,
                di::LLVMDWARFSourceLanguage::LLVMDWARFSourceLanguageC99,
                file,
                producer.as_ptr().cast(),
                producer.len(),
                i32::from(optimized),
                empty,
                0,
                0,
                empty,
                0,
                DEBUG_DIRECTIVES_ONLY,
                0,
                0,
                0,
                empty,
                0,
                empty,
                0,
            )
        };
        lines
    }

    /// The `DIFile` of file name `name`.
    fn file(&self, name: &str) -> LLVMMetadataRef {
        let mut files = self.files.borrow_mut();
        *files.entry(name.to_string()).or_insert_with(|| {
            // SAFETY: a live builder; the strings live for the call.
            unsafe {
                di::LLVMDIBuilderCreateFile(
                    self.di,
                    name.as_ptr().cast(),
                    name.len(),
                    self.dir.as_ptr().cast(),
                    self.dir.len(),
                )
            }
        })
    }

    /// The scope of function `func`, defined at `loc`, attached to it as
    /// its `DISubprogram`.
    pub fn function(&self, func: FunctionValue<'c>, loc: &SrcLoc) -> Scope {
        let file = self.file(&loc.file);
        let name = func.get_name().to_bytes();
        // SAFETY: a live builder, compile unit, file and function; the
        // name lives for the call.
        let sp = unsafe {
            let ty = di::LLVMDIBuilderCreateSubroutineType(
                self.di,
                file,
                std::ptr::null_mut(),
                0,
                di::LLVMDIFlagZero,
            );
            let sp = di::LLVMDIBuilderCreateFunction(
                self.di,
                self.cu,
                name.as_ptr().cast(),
                name.len(),
                name.as_ptr().cast(),
                name.len(),
                file,
                loc.line,
                ty,
                0,
                1,
                loc.line,
                di::LLVMDIFlagZero,
                i32::from(self.optimized),
            );
            di::LLVMSetSubprogram(func.as_value_ref(), sp);
            sp
        };
        Scope {
            sp,
            file: loc.file.clone(),
            blocks: HashMap::new(),
        }
    }

    /// Resolves what the functions left open; before the module is
    /// verified or compiled.
    pub fn finish(&self) {
        if !self.finished.replace(true) {
            // SAFETY: a live builder.
            unsafe { di::LLVMDIBuilderFinalize(self.di) };
        }
    }
}

impl Drop for Lines<'_> {
    fn drop(&mut self) {
        self.finish();
        // SAFETY: the builder, finalised, is not used after this.
        unsafe { di::LLVMDisposeDIBuilder(self.di) };
    }
}

/// One function's `DISubprogram` and the scopes of its other files.
pub(super) struct Scope {
    sp: LLVMMetadataRef,
    /// Its own file's name.
    file: String,
    /// A lexical block of the subprogram per other file.
    blocks: HashMap<String, LLVMMetadataRef>,
}

impl Scope {
    /// The `DILocation` of `loc` in this function.
    fn at(&mut self, lines: &Lines, loc: &SrcLoc) -> LLVMMetadataRef {
        let scope = if loc.file == self.file {
            self.sp
        } else {
            let sp = self.sp;
            *self.blocks.entry(loc.file.clone()).or_insert_with(|| {
                let file = lines.file(&loc.file);
                // SAFETY: a live builder, subprogram and file.
                unsafe { di::LLVMDIBuilderCreateLexicalBlockFile(lines.di, sp, file, 0) }
            })
        };
        // SAFETY: a live context and scope.
        unsafe {
            di::LLVMDIBuilderCreateDebugLocation(
                lines.ctx.raw(),
                loc.line,
                loc.col,
                scope,
                std::ptr::null_mut(),
            )
        }
    }
}

impl super::writer::Writer<'_, '_> {
    /// Makes `loc` the location of the instructions built from now on.
    fn set_location(&mut self, loc: LLVMMetadataRef) {
        // SAFETY: a live builder and location.
        unsafe { inkwell::llvm_sys::core::LLVMSetCurrentDebugLocation2(self.b.as_mut_ptr(), loc) };
        self.here = Some(loc);
    }

    /// With line information: gives function `func`, at `loc`, its scope
    /// and its first instructions (the entry block's) that location.
    pub(super) fn begin_lines(&mut self, func: FunctionValue, loc: &SrcLoc) {
        let Some(lines) = self.lines else {
            return;
        };
        let mut scope = lines.function(func, loc);
        let here = scope.at(lines, loc);
        self.scope = Some(scope);
        self.set_location(here);
    }

    /// Before statement `s`: its location becomes the builder's (a
    /// statement of none keeps the enclosing one: code the compiler wrote
    /// inside a statement is at that statement's line). Returns the
    /// location to restore after it ([`Self::leave`]).
    pub(super) fn enter(&mut self, s: &crate::ir::Stmt) -> Option<LLVMMetadataRef> {
        let (Some(lines), Some(scope)) = (self.lines, self.scope.as_mut()) else {
            return None;
        };
        let outer = self.here;
        if let Some(loc) = self.f.stmt_loc(s).filter(|l| l.line > 0) {
            let here = scope.at(lines, loc);
            self.set_location(here);
        }
        outer
    }

    /// After a statement: back to the location of the one it is in.
    pub(super) fn leave(&mut self, outer: Option<LLVMMetadataRef>) {
        if let Some(l) = outer {
            self.set_location(l);
        }
    }
}
