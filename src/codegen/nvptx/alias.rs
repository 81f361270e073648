//! LLVM's scoped `noalias` metadata for the rows of one array that a
//! kernel's accesses keep apart (`analysis::disjoint_parts`): one domain
//! per array, one scope per row (a prefix of constant leading subscripts);
//! a load or store of a row is in its scope (`!alias.scope`) and declares
//! itself apart from the scopes of the rows it cannot touch (`!noalias`).
//! LLVM then keeps a value stored to `a[3][k][i]` in a register across a
//! store to `a[4][k][i]` even when the rows' distance is computed at run
//! time.
//!
//! Owns: [`Rows`]. May call: `analysis` (`Parts`), inkwell.
//!
//! Scopes and domains are named by strings (`accc.<kernel>.a<n>.r<m>`),
//! which LLVM accepts as their identity, unique in the module because
//! kernel names are.

use super::writer::internal;
use super::Error;
use crate::analysis::Parts;
use crate::ir::ExprId;
use inkwell::context::Context;
use inkwell::values::{BasicMetadataValueEnum, InstructionValue, MetadataValue};
use std::collections::HashMap;

/// The metadata of each row access of one kernel, by its address node.
#[derive(Default)]
pub struct Rows<'c> {
    /// `(!alias.scope, !noalias)` lists of each access.
    of: HashMap<ExprId, (MetadataValue<'c>, MetadataValue<'c>)>,
}

impl<'c> Rows<'c> {
    /// The metadata of `parts`, the rows of kernel `kernel`.
    pub fn new(ctx: &'c Context, kernel: &str, parts: &Parts) -> Rows<'c> {
        let md = |s: MetadataValue<'c>| BasicMetadataValueEnum::MetadataValue(s);
        let mut scopes: Vec<Vec<MetadataValue<'c>>> = vec![];
        for (a, prefixes) in parts.arrays.iter().enumerate() {
            let domain =
                ctx.metadata_node(&[md(ctx.metadata_string(&format!("accc.{kernel}.a{a}")))]);
            scopes.push(
                (0..prefixes.len())
                    .map(|p| {
                        let name = ctx.metadata_string(&format!("accc.{kernel}.a{a}.r{p}"));
                        ctx.metadata_node(&[md(name), md(domain)])
                    })
                    .collect(),
            );
        }
        let mut of = HashMap::new();
        for (&id, &(a, p)) in &parts.access {
            let apart: Vec<BasicMetadataValueEnum<'c>> = parts
                .apart(a, p)
                .into_iter()
                .map(|q| md(scopes[a][q]))
                .collect();
            if apart.is_empty() {
                continue;
            }
            let own = ctx.metadata_node(&[md(scopes[a][p])]);
            of.insert(id, (own, ctx.metadata_node(&apart)));
        }
        Rows { of }
    }

    /// Puts the load or store `inst` of address `addr` in its row's scope,
    /// when it is a row access.
    pub fn mark(
        &self,
        ctx: &'c Context,
        addr: ExprId,
        inst: InstructionValue<'c>,
    ) -> Result<(), Error> {
        let Some(&(own, apart)) = self.of.get(&addr) else {
            return Ok(());
        };
        for (kind, node) in [("alias.scope", own), ("noalias", apart)] {
            if inst.set_metadata(node, ctx.get_kind_id(kind)).is_err() {
                return internal("metadata on an instruction that takes none");
            }
        }
        Ok(())
    }
}
