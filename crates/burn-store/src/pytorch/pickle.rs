//! A pickle virtual machine for what `torch.save` writes, and nothing else.
//!
//! Python's unpickler imports and calls whatever a pickle names, which is
//! why loading an untrusted `.pt` file with it runs arbitrary code. This one
//! knows a fixed set of globals (the tensor and parameter rebuild
//! functions, `collections.OrderedDict`, the storage types and dtypes) and
//! refuses any other, naming it. Objects are data in an arena, referenced by
//! index from the stack and the memo, so a pickle that shares or even
//! cycles its containers costs no more than its own length; the walk that
//! extracts tensors is bounded in depth.
//!
//! Supported: the binary opcodes of protocols 2 to 5 (`FRAME`, `MEMOIZE`,
//! `STACK_GLOBAL`, 8-byte lengths), persistent ids for storages
//! (`BINPERSID`). The text opcodes of protocols 0 and 1 are refused: no
//! `torch.save` writes them. Every length is checked against the bytes left
//! before anything is allocated for it.

use std::collections::HashMap;

use burn_std::{BoolStore, DType};

/// Why a pickle was refused, with the byte offset of the opcode.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("pickle at byte {offset}: {problem}")]
pub struct PickleError {
    /// Offset of the opcode in the pickle.
    pub offset: usize,
    /// What is wrong.
    pub problem: PickleProblem,
}

/// What is wrong with a pickle.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PickleProblem {
    /// The pickle ends before its `STOP`, or inside an argument.
    #[error("truncated: {needed} more bytes needed, {available} left")]
    Truncated {
        /// Bytes the opcode needs.
        needed: u64,
        /// Bytes left.
        available: u64,
    },
    /// An opcode this reader does not know or does not accept.
    #[error("opcode {opcode:#04x} ({name}) is not supported")]
    UnsupportedOpcode {
        /// The byte.
        opcode: u8,
        /// Its name, where known.
        name: &'static str,
    },
    /// A global outside the fixed set.
    #[error(
        "global `{module}.{name}` is refused: only torch.save's tensor rebuild functions, storages, dtypes and collections.OrderedDict are allowed"
    )]
    UnsupportedGlobal {
        /// Its module.
        module: String,
        /// Its name.
        name: String,
    },
    /// A dtype Burn has no equivalent for (`torch.float8_e4m3fn`, …).
    #[error("dtype `torch.{0}` has no Burn equivalent")]
    UnsupportedDType(String),
    /// An opcode found the stack or the mark stack not as it needs it.
    #[error("{0}")]
    Malformed(&'static str),
    /// A memo key that was never stored.
    #[error("memo key {0} was never stored")]
    MissingMemo(u64),
    /// Arguments of a rebuild function or persistent id of the wrong shape.
    #[error("bad arguments for {what}: {why}")]
    BadArguments {
        /// The function or record.
        what: &'static str,
        /// What is wrong.
        why: &'static str,
    },
    /// The pickle nests containers deeper than the limit (or in a cycle).
    #[error("containers nest deeper than {0} levels")]
    TooDeep(usize),
    /// More objects than the limit.
    #[error("more than {0} objects")]
    TooManyObjects(usize),
    /// `STOP` was reached with more or less than one value on the stack.
    #[error("STOP with {0} values on the stack")]
    BadStop(usize),
}

/// An index into the arena.
pub(crate) type Id = usize;

/// A storage, as a persistent id names it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct StorageRef {
    /// The key: the zip entry `data/{key}`, or the legacy storage's key.
    pub key: String,
    /// The element type of a typed storage; `None` for an untyped one
    /// (`UntypedStorage`, whose `numel` counts bytes).
    pub dtype: Option<DType>,
    /// Its length, in elements of `dtype` (bytes when untyped).
    pub numel: u64,
}

impl StorageRef {
    /// Its length in bytes, `None` on overflow.
    pub fn byte_len(&self) -> Option<u64> {
        let size = self.dtype.map_or(1, |d| d.size() as u64);
        self.numel.checked_mul(size)
    }
}

/// A tensor, as `_rebuild_tensor_v2` / `_v3` describe it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TensorRef {
    pub storage: StorageRef,
    pub dtype: DType,
    /// Offset into the storage, in elements of `dtype`.
    pub offset: u64,
    pub shape: Vec<u64>,
    pub strides: Vec<u64>,
}

/// The globals this reader knows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Global {
    OrderedDict,
    RebuildTensorV2,
    RebuildTensorV3,
    RebuildParameter,
    RebuildParameterWithState,
    /// `torch.FloatStorage` and friends; `None` for `UntypedStorage`.
    StorageType(Option<DType>),
    /// `torch.float32` and friends (arguments of `_rebuild_tensor_v3`).
    DType(DType),
}

/// An object of the pickle.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value {
    None,
    Bool(bool),
    Int(i64),
    /// An integer wider than 64 bits, as its little-endian two's complement bytes.
    Long(Vec<u8>),
    Float(f64),
    Str(String),
    Bytes(Vec<u8>),
    List(Vec<Id>),
    Tuple(Vec<Id>),
    Dict(Vec<(Id, Id)>),
    Global(Global),
    Storage(StorageRef),
    Tensor(TensorRef),
}

/// Limits a pickle must stay within.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    pub max_objects: usize,
    pub max_depth: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_objects: 50_000_000,
            max_depth: 128,
        }
    }
}

/// A pickle's objects and its result.
#[derive(Debug)]
pub(crate) struct Unpickled {
    pub arena: Vec<Value>,
    pub root: Id,
    /// Bytes read, `STOP` included (the legacy format puts pickles one
    /// after the other).
    pub consumed: usize,
}

impl Unpickled {
    pub fn get(&self, id: Id) -> &Value {
        &self.arena[id]
    }
}

struct Machine<'a> {
    input: &'a [u8],
    pos: usize,
    /// Offset of the opcode being run.
    op_start: usize,
    arena: Vec<Value>,
    stack: Vec<Id>,
    marks: Vec<usize>,
    memo: HashMap<u64, Id>,
    limits: Limits,
}

/// Runs the pickle at the start of `input`.
pub(crate) fn unpickle(input: &[u8], limits: Limits) -> Result<Unpickled, PickleError> {
    let mut m = Machine {
        input,
        pos: 0,
        op_start: 0,
        arena: Vec::new(),
        stack: Vec::new(),
        marks: Vec::new(),
        memo: HashMap::new(),
        limits,
    };
    let root = m.run()?;
    Ok(Unpickled {
        arena: m.arena,
        root,
        consumed: m.pos,
    })
}

impl Machine<'_> {
    fn err(&self, problem: PickleProblem) -> PickleError {
        PickleError {
            offset: self.op_start,
            problem,
        }
    }

    fn malformed(&self, why: &'static str) -> PickleError {
        self.err(PickleProblem::Malformed(why))
    }

    fn take(&mut self, n: u64) -> Result<&[u8], PickleError> {
        let available = (self.input.len() - self.pos) as u64;
        if n > available {
            return Err(self.err(PickleProblem::Truncated {
                needed: n,
                available,
            }));
        }
        let start = self.pos;
        self.pos += n as usize;
        Ok(&self.input[start..self.pos])
    }

    fn u8(&mut self) -> Result<u8, PickleError> {
        Ok(self.take(1)?[0])
    }

    fn le<const N: usize>(&mut self) -> Result<[u8; N], PickleError> {
        Ok(self.take(N as u64)?.try_into().expect("N bytes"))
    }

    fn line(&mut self) -> Result<String, PickleError> {
        let rest = &self.input[self.pos..];
        let Some(end) = rest.iter().position(|&b| b == b'\n') else {
            return Err(self.err(PickleProblem::Truncated {
                needed: rest.len() as u64 + 1,
                available: rest.len() as u64,
            }));
        };
        let line = String::from_utf8_lossy(&rest[..end]).into_owned();
        self.pos += end + 1;
        Ok(line)
    }

    fn alloc(&mut self, value: Value) -> Result<Id, PickleError> {
        if self.arena.len() >= self.limits.max_objects {
            return Err(self.err(PickleProblem::TooManyObjects(self.limits.max_objects)));
        }
        self.arena.push(value);
        Ok(self.arena.len() - 1)
    }

    fn push(&mut self, value: Value) -> Result<(), PickleError> {
        let id = self.alloc(value)?;
        self.stack.push(id);
        Ok(())
    }

    fn pop(&mut self) -> Result<Id, PickleError> {
        let floor = self.marks.last().copied().unwrap_or(0);
        if self.stack.len() <= floor {
            return Err(self.malformed("pop from an empty stack (or across a mark)"));
        }
        Ok(self.stack.pop().expect("checked above"))
    }

    fn top(&self) -> Result<Id, PickleError> {
        let floor = self.marks.last().copied().unwrap_or(0);
        if self.stack.len() <= floor {
            return Err(self.malformed("no value on the stack"));
        }
        Ok(*self.stack.last().expect("checked above"))
    }

    /// The values since the last mark, removing them and the mark.
    fn pop_mark(&mut self) -> Result<Vec<Id>, PickleError> {
        let Some(mark) = self.marks.pop() else {
            return Err(self.malformed("no mark on the stack"));
        };
        Ok(self.stack.split_off(mark))
    }

    fn memo_put(&mut self, key: u64) -> Result<(), PickleError> {
        let id = self.top()?;
        self.memo.insert(key, id);
        Ok(())
    }

    fn memo_get(&mut self, key: u64) -> Result<(), PickleError> {
        let Some(&id) = self.memo.get(&key) else {
            return Err(self.err(PickleProblem::MissingMemo(key)));
        };
        self.stack.push(id);
        Ok(())
    }

    fn string(&mut self, len: u64) -> Result<(), PickleError> {
        let bytes = self.take(len)?;
        let s = String::from_utf8_lossy(bytes).into_owned();
        self.push(Value::Str(s))
    }

    fn bytes(&mut self, len: u64) -> Result<(), PickleError> {
        let bytes = self.take(len)?.to_vec();
        self.push(Value::Bytes(bytes))
    }

    fn long(&mut self, len: u64) -> Result<(), PickleError> {
        let bytes = self.take(len)?;
        let value = if bytes.len() <= 8 {
            let negative = bytes.last().is_some_and(|&b| b & 0x80 != 0);
            let mut buf = [if negative { 0xFF } else { 0 }; 8];
            buf[..bytes.len()].copy_from_slice(bytes);
            Value::Int(i64::from_le_bytes(buf))
        } else {
            Value::Long(bytes.to_vec())
        };
        self.push(value)
    }

    fn setitems(&mut self, dict: Id, items: Vec<Id>) -> Result<(), PickleError> {
        if !items.len().is_multiple_of(2) {
            return Err(self.malformed("SETITEMS with an odd number of values"));
        }
        let pairs = items.chunks_exact(2).map(|kv| (kv[0], kv[1]));
        match &mut self.arena[dict] {
            Value::Dict(entries) => {
                entries.extend(pairs);
                Ok(())
            }
            _ => Err(self.malformed("SETITEM on something that is not a dict")),
        }
    }

    fn extend(&mut self, list: Id, items: Vec<Id>) -> Result<(), PickleError> {
        match &mut self.arena[list] {
            Value::List(values) => {
                values.extend(items);
                Ok(())
            }
            _ => Err(self.malformed("APPEND on something that is not a list")),
        }
    }

    fn global(&mut self, module: &str, name: &str) -> Result<(), PickleError> {
        let global = resolve_global(module, name).map_err(|p| self.err(p))?;
        self.push(Value::Global(global))
    }

    fn run(&mut self) -> Result<Id, PickleError> {
        loop {
            self.op_start = self.pos;
            let op = self.u8()?;
            match op {
                0x80 => {
                    let _protocol = self.u8()?;
                }
                0x95 => {
                    // FRAME: a length hint; the frame's bytes are read as
                    // they come, so only check that it is not a lie.
                    let len = u64::from_le_bytes(self.le::<8>()?);
                    let available = (self.input.len() - self.pos) as u64;
                    if len > available {
                        return Err(self.err(PickleProblem::Truncated {
                            needed: len,
                            available,
                        }));
                    }
                }
                b'.' => {
                    let floor = self.marks.last().copied().unwrap_or(0);
                    if self.stack.len() != 1 || floor != 0 || !self.marks.is_empty() {
                        return Err(self.err(PickleProblem::BadStop(self.stack.len())));
                    }
                    return Ok(self.stack[0]);
                }
                b'(' => self.marks.push(self.stack.len()),
                b'0' => {
                    self.pop()?;
                }
                b'1' => {
                    self.pop_mark()?;
                }
                b'2' => {
                    let id = self.top()?;
                    self.stack.push(id);
                }
                b'N' => self.push(Value::None)?,
                0x88 => self.push(Value::Bool(true))?,
                0x89 => self.push(Value::Bool(false))?,
                b'J' => {
                    let v = i32::from_le_bytes(self.le::<4>()?);
                    self.push(Value::Int(v.into()))?;
                }
                b'K' => {
                    let v = self.u8()?;
                    self.push(Value::Int(v.into()))?;
                }
                b'M' => {
                    let v = u16::from_le_bytes(self.le::<2>()?);
                    self.push(Value::Int(v.into()))?;
                }
                0x8a => {
                    let n = self.u8()?;
                    self.long(n.into())?;
                }
                0x8b => {
                    let n = i32::from_le_bytes(self.le::<4>()?);
                    if n < 0 {
                        return Err(self.malformed("LONG4 with a negative length"));
                    }
                    self.long(n as u64)?;
                }
                b'G' => {
                    let v = f64::from_be_bytes(self.le::<8>()?);
                    self.push(Value::Float(v))?;
                }
                b'X' => {
                    let n = u32::from_le_bytes(self.le::<4>()?);
                    self.string(n.into())?;
                }
                0x8c => {
                    let n = self.u8()?;
                    self.string(n.into())?;
                }
                0x8d => {
                    let n = u64::from_le_bytes(self.le::<8>()?);
                    self.string(n)?;
                }
                b'T' => {
                    let n = i32::from_le_bytes(self.le::<4>()?);
                    if n < 0 {
                        return Err(self.malformed("BINSTRING with a negative length"));
                    }
                    self.string(n as u64)?;
                }
                b'U' => {
                    let n = self.u8()?;
                    self.string(n.into())?;
                }
                b'B' => {
                    let n = u32::from_le_bytes(self.le::<4>()?);
                    self.bytes(n.into())?;
                }
                b'C' => {
                    let n = self.u8()?;
                    self.bytes(n.into())?;
                }
                0x8e | 0x96 => {
                    let n = u64::from_le_bytes(self.le::<8>()?);
                    self.bytes(n)?;
                }
                b')' => self.push(Value::Tuple(Vec::new()))?,
                b't' => {
                    let items = self.pop_mark()?;
                    self.push(Value::Tuple(items))?;
                }
                0x85..=0x87 => {
                    let n = usize::from(op - 0x84);
                    let mut items = Vec::with_capacity(n);
                    for _ in 0..n {
                        items.push(self.pop()?);
                    }
                    items.reverse();
                    self.push(Value::Tuple(items))?;
                }
                b']' => self.push(Value::List(Vec::new()))?,
                b'l' => {
                    let items = self.pop_mark()?;
                    self.push(Value::List(items))?;
                }
                b'a' => {
                    let item = self.pop()?;
                    let list = self.top()?;
                    self.extend(list, vec![item])?;
                }
                b'e' => {
                    let items = self.pop_mark()?;
                    let list = self.top()?;
                    self.extend(list, items)?;
                }
                // Sets become lists: nothing torch.save puts in a state
                // dict depends on their semantics.
                0x8f => self.push(Value::List(Vec::new()))?,
                0x90 => {
                    let items = self.pop_mark()?;
                    let set = self.top()?;
                    self.extend(set, items)?;
                }
                0x91 => {
                    let items = self.pop_mark()?;
                    self.push(Value::List(items))?;
                }
                b'}' => self.push(Value::Dict(Vec::new()))?,
                b'd' => {
                    let items = self.pop_mark()?;
                    let dict = self.alloc(Value::Dict(Vec::new()))?;
                    self.setitems(dict, items)?;
                    self.stack.push(dict);
                }
                b's' => {
                    let value = self.pop()?;
                    let key = self.pop()?;
                    let dict = self.top()?;
                    self.setitems(dict, vec![key, value])?;
                }
                b'u' => {
                    let items = self.pop_mark()?;
                    let dict = self.top()?;
                    self.setitems(dict, items)?;
                }
                b'c' => {
                    let module = self.line()?;
                    let name = self.line()?;
                    self.global(&module, &name)?;
                }
                0x93 => {
                    let name = self.pop()?;
                    let module = self.pop()?;
                    let (Value::Str(module), Value::Str(name)) =
                        (&self.arena[module], &self.arena[name])
                    else {
                        return Err(self.malformed("STACK_GLOBAL without two strings"));
                    };
                    let (module, name) = (module.clone(), name.clone());
                    self.global(&module, &name)?;
                }
                b'R' => {
                    let args = self.pop()?;
                    let callable = self.pop()?;
                    let value = self.call(callable, args)?;
                    self.stack.push(value);
                }
                0x81 => {
                    // NEWOBJ: `cls.__new__(cls, *args)`; only OrderedDict.
                    let args = self.pop()?;
                    let cls = self.pop()?;
                    let value = self.call(cls, args)?;
                    self.stack.push(value);
                }
                b'b' => {
                    // BUILD sets an object's state: an OrderedDict's
                    // attributes (a state dict's `_metadata`), a
                    // parameter's. None of it is tensor data.
                    self.pop()?;
                    let target = self.top()?;
                    if !matches!(self.arena[target], Value::Dict(_) | Value::Tensor(_)) {
                        return Err(
                            self.malformed("BUILD on something other than a dict or tensor")
                        );
                    }
                }
                b'Q' => {
                    let pid = self.pop()?;
                    let storage = self.persistent_load(pid)?;
                    self.push(Value::Storage(storage))?;
                }
                b'q' => {
                    let key = self.u8()?;
                    self.memo_put(key.into())?;
                }
                b'r' => {
                    let key = u32::from_le_bytes(self.le::<4>()?);
                    self.memo_put(key.into())?;
                }
                0x94 => {
                    let key = self.memo.len() as u64;
                    self.memo_put(key)?;
                }
                b'h' => {
                    let key = self.u8()?;
                    self.memo_get(key.into())?;
                }
                b'j' => {
                    let key = u32::from_le_bytes(self.le::<4>()?);
                    self.memo_get(key.into())?;
                }
                other => {
                    return Err(self.err(PickleProblem::UnsupportedOpcode {
                        opcode: other,
                        name: opcode_name(other),
                    }));
                }
            }
        }
    }

    fn items(&self, id: Id, what: &'static str) -> Result<Vec<Id>, PickleError> {
        match &self.arena[id] {
            Value::Tuple(items) => Ok(items.clone()),
            _ => Err(self.err(PickleProblem::BadArguments {
                what,
                why: "the arguments are not a tuple",
            })),
        }
    }

    fn int(&self, id: Id, what: &'static str, why: &'static str) -> Result<u64, PickleError> {
        match self.arena[id] {
            Value::Int(v) if v >= 0 => Ok(v as u64),
            _ => Err(self.err(PickleProblem::BadArguments { what, why })),
        }
    }

    fn ints(&self, id: Id, what: &'static str, why: &'static str) -> Result<Vec<u64>, PickleError> {
        let items = match &self.arena[id] {
            Value::Tuple(items) | Value::List(items) => items,
            _ => return Err(self.err(PickleProblem::BadArguments { what, why })),
        };
        items.iter().map(|&i| self.int(i, what, why)).collect()
    }

    fn call(&mut self, callable: Id, args: Id) -> Result<Id, PickleError> {
        let Value::Global(global) = self.arena[callable] else {
            return Err(self.malformed("REDUCE on something that is not a known global"));
        };
        let args = self.items(args, "a call")?;
        match global {
            Global::OrderedDict => {
                if !args.is_empty() {
                    return Err(self.err(PickleProblem::BadArguments {
                        what: "collections.OrderedDict",
                        why: "expected no arguments",
                    }));
                }
                self.alloc(Value::Dict(Vec::new()))
            }
            Global::RebuildTensorV2 | Global::RebuildTensorV3 => {
                let what = if global == Global::RebuildTensorV2 {
                    "torch._utils._rebuild_tensor_v2"
                } else {
                    "torch._utils._rebuild_tensor_v3"
                };
                let expected = if global == Global::RebuildTensorV2 {
                    6..=7
                } else {
                    7..=8
                };
                if !expected.contains(&args.len()) {
                    return Err(self.err(PickleProblem::BadArguments {
                        what,
                        why: "wrong number of arguments",
                    }));
                }
                let Value::Storage(storage) = self.arena[args[0]].clone() else {
                    return Err(self.err(PickleProblem::BadArguments {
                        what,
                        why: "the first argument is not a storage",
                    }));
                };
                let offset = self.int(
                    args[1],
                    what,
                    "the storage offset is not a non-negative int",
                )?;
                let shape = self.ints(
                    args[2],
                    what,
                    "the size is not a tuple of non-negative ints",
                )?;
                let strides = self.ints(
                    args[3],
                    what,
                    "the stride is not a tuple of non-negative ints",
                )?;
                if shape.len() != strides.len() {
                    return Err(self.err(PickleProblem::BadArguments {
                        what,
                        why: "size and stride have different lengths",
                    }));
                }
                let dtype = if global == Global::RebuildTensorV3 {
                    match self.arena[args[6]] {
                        Value::Global(Global::DType(dtype)) => dtype,
                        _ => {
                            return Err(self.err(PickleProblem::BadArguments {
                                what,
                                why: "the seventh argument is not a dtype",
                            }));
                        }
                    }
                } else {
                    storage.dtype.ok_or_else(|| {
                        self.err(PickleProblem::BadArguments {
                            what,
                            why: "an untyped storage needs _rebuild_tensor_v3's dtype",
                        })
                    })?
                };
                self.alloc(Value::Tensor(TensorRef {
                    storage,
                    dtype,
                    offset,
                    shape,
                    strides,
                }))
            }
            Global::RebuildParameter | Global::RebuildParameterWithState => {
                let what = "torch._utils._rebuild_parameter";
                let n = if global == Global::RebuildParameter {
                    3
                } else {
                    4
                };
                if args.len() != n || !matches!(self.arena[args[0]], Value::Tensor(_)) {
                    return Err(self.err(PickleProblem::BadArguments {
                        what,
                        why: "expected (tensor, requires_grad, hooks[, state])",
                    }));
                }
                Ok(args[0])
            }
            Global::StorageType(_) | Global::DType(_) => {
                Err(self.malformed("a storage type or dtype called like a function"))
            }
        }
    }

    /// `('storage', storage_type, key, location, numel[, view_metadata])`.
    fn persistent_load(&self, pid: Id) -> Result<StorageRef, PickleError> {
        let what = "a persistent id";
        let items = self.items(pid, what)?;
        let bad = |why| self.err(PickleProblem::BadArguments { what, why });
        if !(5..=6).contains(&items.len()) {
            return Err(bad("expected ('storage', type, key, location, numel)"));
        }
        if !matches!(&self.arena[items[0]], Value::Str(s) if s == "storage") {
            return Err(bad("only storages are persistent"));
        }
        let Value::Global(Global::StorageType(dtype)) = self.arena[items[1]] else {
            return Err(bad("the second item is not a storage type"));
        };
        let key = match &self.arena[items[2]] {
            Value::Str(key) => key.clone(),
            Value::Int(key) => key.to_string(),
            _ => return Err(bad("the key is not a string")),
        };
        let numel = self.int(items[4], what, "the size is not a non-negative int")?;
        Ok(StorageRef { key, dtype, numel })
    }
}

fn resolve_global(module: &str, name: &str) -> Result<Global, PickleProblem> {
    let global = match (module, name) {
        ("collections", "OrderedDict") => Global::OrderedDict,
        ("torch._utils", "_rebuild_tensor_v2") => Global::RebuildTensorV2,
        ("torch._utils", "_rebuild_tensor_v3") => Global::RebuildTensorV3,
        ("torch._utils", "_rebuild_parameter") => Global::RebuildParameter,
        ("torch._utils", "_rebuild_parameter_with_state") => Global::RebuildParameterWithState,
        ("torch" | "torch.storage", "UntypedStorage") => Global::StorageType(None),
        ("torch", storage) if storage.ends_with("Storage") => {
            let dtype = match storage {
                "DoubleStorage" => DType::F64,
                "FloatStorage" => DType::F32,
                "HalfStorage" => DType::F16,
                "BFloat16Storage" => DType::BF16,
                "LongStorage" => DType::I64,
                "IntStorage" => DType::I32,
                "ShortStorage" => DType::I16,
                "CharStorage" => DType::I8,
                "ByteStorage" => DType::U8,
                "BoolStorage" => DType::Bool(BoolStore::Native),
                _ => {
                    return Err(PickleProblem::UnsupportedGlobal {
                        module: module.into(),
                        name: name.into(),
                    });
                }
            };
            Global::StorageType(Some(dtype))
        }
        ("torch", dtype) => match torch_dtype(dtype) {
            Some(Some(dtype)) => Global::DType(dtype),
            Some(None) => return Err(PickleProblem::UnsupportedDType(dtype.into())),
            None => {
                return Err(PickleProblem::UnsupportedGlobal {
                    module: module.into(),
                    name: name.into(),
                });
            }
        },
        _ => {
            return Err(PickleProblem::UnsupportedGlobal {
                module: module.into(),
                name: name.into(),
            });
        }
    };
    Ok(global)
}

/// `Some(Some(_))`: a dtype Burn has; `Some(None)`: a torch dtype it has
/// not; `None`: not a dtype.
fn torch_dtype(name: &str) -> Option<Option<DType>> {
    Some(Some(match name {
        "float64" | "double" => DType::F64,
        "float32" | "float" => DType::F32,
        "float16" | "half" => DType::F16,
        "bfloat16" => DType::BF16,
        "int64" | "long" => DType::I64,
        "int32" | "int" => DType::I32,
        "int16" | "short" => DType::I16,
        "int8" => DType::I8,
        "uint8" => DType::U8,
        "uint16" => DType::U16,
        "uint32" => DType::U32,
        "uint64" => DType::U64,
        "bool" => DType::Bool(BoolStore::Native),
        n if n.starts_with("float8")
            || n.starts_with("complex")
            || n.starts_with("quint")
            || n.starts_with("qint")
            || n.starts_with("float4")
            || n.starts_with("bits")
            || n.starts_with("int1")
            || n.starts_with("int2")
            || n.starts_with("int3")
            || n.starts_with("int4")
            || n.starts_with("uint")
            || n == "cfloat"
            || n == "cdouble"
            || n == "chalf" =>
        {
            return Some(None);
        }
        _ => return None,
    }))
}

fn opcode_name(op: u8) -> &'static str {
    match op {
        b'I' => "INT, protocol 0",
        b'L' => "LONG, protocol 0",
        b'F' => "FLOAT, protocol 0",
        b'S' => "STRING, protocol 0",
        b'V' => "UNICODE, protocol 0",
        b'p' => "PUT, protocol 0",
        b'g' => "GET, protocol 0",
        b'P' => "PERSID, protocol 0",
        b'i' => "INST",
        b'o' => "OBJ",
        0x82..=0x84 => "EXT",
        0x92 => "NEWOBJ_EX",
        0x97 => "NEXT_BUFFER",
        0x98 => "READONLY_BUFFER",
        _ => "unknown",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(bytes: &[u8]) -> Result<Unpickled, PickleError> {
        unpickle(bytes, Limits::default())
    }

    #[test]
    fn refuses_other_globals_by_name() {
        let err = run(b"\x80\x02cos\nsystem\nq\x00.").unwrap_err();
        assert_eq!(
            err.problem,
            PickleProblem::UnsupportedGlobal {
                module: "os".into(),
                name: "system".into()
            }
        );
        assert_eq!(err.offset, 2);
        let err = run(b"\x80\x02ctorch\nfloat8_e4m3fn\n.").unwrap_err();
        assert_eq!(
            err.problem,
            PickleProblem::UnsupportedDType("float8_e4m3fn".into())
        );
    }

    #[test]
    fn lying_lengths_are_refused_before_allocating() {
        let err = run(b"\x80\x04\x8d\xff\xff\xff\xff\xff\xff\xff\x7f").unwrap_err();
        assert!(
            matches!(err.problem, PickleProblem::Truncated { .. }),
            "{err}"
        );
        let err = run(b"\x80\x04\x95\x00\x00\x00\x00\x00\x00\x01\x00N.").unwrap_err();
        assert!(
            matches!(err.problem, PickleProblem::Truncated { .. }),
            "{err}"
        );
    }

    #[test]
    fn cycles_and_sharing_are_plain_indices() {
        // l = []; l.append(l)
        let u = run(b"\x80\x02]q\x00h\x00a.").unwrap();
        assert_eq!(u.get(u.root), &Value::List(vec![u.root]));
    }

    #[test]
    fn big_longs_and_negative_ints() {
        let u = run(b"\x80\x02\x8a\x02\xff\xff.").unwrap();
        assert_eq!(u.get(u.root), &Value::Int(-1));
        let u = run(b"\x80\x02\x8a\x09\x01\x00\x00\x00\x00\x00\x00\x00\x01.").unwrap();
        assert!(matches!(u.get(u.root), Value::Long(bytes) if bytes.len() == 9));
    }

    #[test]
    fn stack_misuse_is_an_error() {
        assert!(matches!(
            run(b"\x80\x020.").unwrap_err().problem,
            PickleProblem::Malformed(_)
        ));
        assert!(matches!(
            run(b"\x80\x02NN.").unwrap_err().problem,
            PickleProblem::BadStop(2)
        ));
        assert!(matches!(
            run(b"\x80\x02(N.").unwrap_err().problem,
            PickleProblem::BadStop(_)
        ));
        assert!(matches!(
            run(b"\x80\x02h\x05.").unwrap_err().problem,
            PickleProblem::MissingMemo(5)
        ));
    }
}
