//! The record of one execution's nondeterminism ([`Witness`]): what every engine hands back
//! for a violation, and what the interpreter (`qicc-interp`) replays before qicc reports it.
//!
//! A witness lives here, beside the IR whose executions it picks out, rather than in the
//! interpreter: the engine contract (`qicc-engine`) and every engine carry witnesses, and
//! none of them should need the interpreter for that — only to replay one.
//!
//! A witness holds the answers per kind of question: bytes by address, everything else as a
//! list consumed in order. The order is the one in which the interpreter asks, and an engine's
//! witness replays only if it follows these conventions:
//! - Havocs, in execution order: first every global without initialiser (global order, kind
//!   `uninit`, no site), then the entry function's parameters (parameter order, `uninit`), then
//!   the `havoc` edges as they are taken. Only the low bits of the variable's width are used
//!   (and recorded).
//! - Bytes: memory is a total map; a byte never written and not given by a static object's
//!   initialiser (or zero fill) is the witness's byte for that address, one value per address
//!   for the whole run (also after `havoc_memory`, which forgets writes and initialisers but
//!   keeps the object table). Reads are never checked; stores always write, wrapping at the
//!   pointer width.
//! - Objects: `alloc` takes the witness's number, or by default the lowest number that is
//!   neither static nor allocated before in this run; numbers are never reused.
//! - Choices: the index among the *enabled* edges (in edge order) of the location.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Every answer an oracle gave during one run, in a form that replays it exactly.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Witness {
    /// Values of the havocs in execution order.
    pub havocs: Vec<u64>,
    /// Bytes of never-written memory, by address.
    pub uninit: BTreeMap<u64, u8>,
    /// Object numbers of the allocations in execution order.
    pub alloc_ids: Vec<u32>,
    /// The bytes each `havoc_bytes` chose, in execution order.
    #[serde(default)]
    pub havoc_bytes: Vec<Vec<u8>>,
    /// Choices among enabled edges, in execution order.
    pub choices: Vec<u32>,
}
