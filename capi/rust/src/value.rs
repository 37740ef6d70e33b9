//! `Value`: an owned CBOR data item (RFC 8949 data model).

/// An owned CBOR data item.
///
/// Integers cover the whole CBOR range: `Unsigned(0 ..= 2^64-1)`, `Negative(n)`
/// meaning `-1 - n` (down to `-2^64`), and `BigNum` (tags 2 and 3) beyond that.
///
/// # Equality
///
/// `==` compares the data model, not the encoding:
/// * integers compare by value whatever their form: `Unsigned(1)`,
///   `BigNum { negative: false, magnitude: vec![0, 1] }` and
///   `Tag(2, Bytes(vec![1]))` are all equal (the decoder returns the first);
/// * floats compare by bit pattern, so `NaN == NaN` when the payloads match and
///   `0.0 != -0.0`; this makes `==` an equivalence (`Value` is `Eq`) and a
///   round trip `decode(encode(v)) == v` meaningful for every float;
/// * maps compare as ordered lists of pairs (order and duplicates kept);
/// * `Simple(20..=23)` is not equal to `Bool`/`Null`/`Undefined` although it
///   encodes to the same bytes (the decoder returns the latter).
///
/// # Depth
///
/// `==`, `Drop`, `Clone` and `Debug` use explicit stacks, as do
/// [`crate::encode`] and [`crate::decode`]: a value of any depth the decoder
/// accepts (`max_depth` can be raised far beyond the default 512) is built,
/// compared, copied, printed, encoded and dropped in constant stack space.
pub enum Value {
    /// Major type 0.
    Unsigned(u64),
    /// Major type 1: the integer `-1 - n`.
    Negative(u64),
    /// Tag 2 (`negative == false`: the magnitude) or tag 3 (`-1 - magnitude`);
    /// big-endian magnitude. Encoded as a plain integer when it fits 64 bits.
    BigNum {
        negative: bool,
        magnitude: Vec<u8>,
    },
    /// Half, single or double on the wire; encoded in the shortest width that
    /// keeps the value exactly (NaN payloads included).
    Float(f64),
    Bytes(Vec<u8>),
    Text(String),
    Array(Vec<Value>),
    /// Pairs in encoding order; duplicates are kept.
    Map(Vec<(Value, Value)>),
    Tag(u64, Box<Value>),
    /// A simple value other than false, true, null and undefined: 0..=19 and
    /// 32..=255 (24..=31 are not well-formed and fail to encode).
    Simple(u8),
    Bool(bool),
    Null,
    Undefined,
}

/// An integer in canonical form, for comparisons.
#[derive(PartialEq, Eq)]
enum IntKey<'a> {
    Small(bool, u64),
    Big(bool, &'a [u8]),
}

fn int_key(negative: bool, magnitude: &[u8]) -> IntKey<'_> {
    let start = magnitude.iter().position(|&b| b != 0).unwrap_or(magnitude.len());
    let m = &magnitude[start..];
    if m.len() <= 8 {
        IntKey::Small(negative, m.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b)))
    } else {
        IntKey::Big(negative, m)
    }
}

/// Big-endian bytes of `v` without leading zeros (empty for 0).
fn trimmed_be(v: u128) -> Vec<u8> {
    let bytes = v.to_be_bytes();
    let start = bytes.iter().position(|&b| b != 0).unwrap_or(bytes.len());
    bytes[start..].to_vec()
}

impl Value {
    /// The integer `raw` (`negative == false`) or `-1 - raw`.
    pub fn integer(negative: bool, raw: u64) -> Value {
        if negative { Value::Negative(raw) } else { Value::Unsigned(raw) }
    }

    /// An integer of any size from a big-endian magnitude, in canonical form:
    /// leading zeros dropped, and `Unsigned`/`Negative` when it fits 64 bits.
    pub fn bignum(negative: bool, magnitude: &[u8]) -> Value {
        match int_key(negative, magnitude) {
            IntKey::Small(neg, raw) => Value::integer(neg, raw),
            IntKey::Big(neg, m) => Value::BigNum { negative: neg, magnitude: m.to_vec() },
        }
    }

    fn int_key(&self) -> Option<IntKey<'_>> {
        match self {
            Value::Unsigned(v) => Some(IntKey::Small(false, *v)),
            Value::Negative(n) => Some(IntKey::Small(true, *n)),
            Value::BigNum { negative, magnitude } => Some(int_key(*negative, magnitude)),
            Value::Tag(t @ (2 | 3), content) => match &**content {
                Value::Bytes(m) => Some(int_key(*t == 3, m)),
                _ => None,
            },
            _ => None,
        }
    }

    /// Any integer (including bignums) that fits `i128`.
    pub fn as_i128(&self) -> Option<i128> {
        let (negative, magnitude) = match self.int_key()? {
            IntKey::Small(neg, raw) => (neg, u128::from(raw)),
            IntKey::Big(neg, m) if m.len() <= 16 => {
                (neg, m.iter().fold(0u128, |acc, &b| (acc << 8) | u128::from(b)))
            }
            IntKey::Big(..) => return None,
        };
        if negative {
            // -1 - magnitude >= i128::MIN  <=>  magnitude <= i128::MAX
            i128::try_from(magnitude).ok().map(|m| -1 - m)
        } else {
            i128::try_from(magnitude).ok()
        }
    }

    /// An integer that fits `i64`.
    pub fn as_i64(&self) -> Option<i64> {
        self.as_i128().and_then(|v| i64::try_from(v).ok())
    }

    /// A non-negative integer that fits `u64`.
    pub fn as_u64(&self) -> Option<u64> {
        self.as_i128().and_then(|v| u64::try_from(v).ok())
    }

    /// A float (integers are not converted).
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Float(f) => Some(*f),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Text(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_bytes(&self) -> Option<&[u8]> {
        match self {
            Value::Bytes(b) => Some(b),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    pub fn as_map(&self) -> Option<&[(Value, Value)]> {
        match self {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }

    /// Tag number and content.
    pub fn as_tag(&self) -> Option<(u64, &Value)> {
        match self {
            Value::Tag(t, c) => Some((*t, c)),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// Map: the value of the first pair whose key is the text `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.as_map()?.iter().find(|(k, _)| k.as_str() == Some(key)).map(|(_, v)| v)
    }

    /// Array: item `index`.
    pub fn index(&self, index: usize) -> Option<&Value> {
        self.as_array()?.get(index)
    }
}

impl Value {
    /// Moves the children of a container out (leaving it empty), onto `out`.
    fn take_children(&mut self, out: &mut Vec<Value>) {
        match self {
            Value::Array(items) => out.append(items),
            Value::Map(pairs) => {
                for (k, v) in pairs.drain(..) {
                    out.push(k);
                    out.push(v);
                }
            }
            Value::Tag(_, content) if content.is_container() => {
                out.push(std::mem::replace(&mut **content, Value::Null));
            }
            _ => {}
        }
    }

    /// Has children whose drop could nest (not recursive itself).
    fn is_container(&self) -> bool {
        match self {
            Value::Array(a) => !a.is_empty(),
            Value::Map(m) => !m.is_empty(),
            Value::Tag(_, c) => !matches!(
                **c,
                Value::Unsigned(_)
                    | Value::Negative(_)
                    | Value::BigNum { .. }
                    | Value::Float(_)
                    | Value::Bytes(_)
                    | Value::Text(_)
                    | Value::Simple(_)
                    | Value::Bool(_)
                    | Value::Null
                    | Value::Undefined
            ),
            _ => false,
        }
    }
}

/// `Null`.
impl Default for Value {
    fn default() -> Value {
        Value::Null
    }
}

/// Taking a value apart. `Value` implements `Drop` (to drop deep values
/// without recursion), so a `match` cannot move fields out of it; these do.
impl Value {
    /// The items of an array (`Err(self)` for anything else).
    pub fn into_array(mut self) -> Result<Vec<Value>, Value> {
        match &mut self {
            Value::Array(items) => Ok(std::mem::take(items)),
            _ => Err(self),
        }
    }

    /// The pairs of a map.
    pub fn into_map(mut self) -> Result<Vec<(Value, Value)>, Value> {
        match &mut self {
            Value::Map(pairs) => Ok(std::mem::take(pairs)),
            _ => Err(self),
        }
    }

    /// The text of a text string.
    pub fn into_text(mut self) -> Result<String, Value> {
        match &mut self {
            Value::Text(t) => Ok(std::mem::take(t)),
            _ => Err(self),
        }
    }

    /// The bytes of a byte string.
    pub fn into_bytes(mut self) -> Result<Vec<u8>, Value> {
        match &mut self {
            Value::Bytes(b) => Ok(std::mem::take(b)),
            _ => Err(self),
        }
    }

    /// Tag number and content.
    pub fn into_tag(mut self) -> Result<(u64, Value), Value> {
        match &mut self {
            Value::Tag(t, content) => Ok((*t, std::mem::take(&mut **content))),
            _ => Err(self),
        }
    }
}

impl Drop for Value {
    /// Takes nested containers apart with a heap stack: each value dropped
    /// here has no children left, so the compiler's drop glue never recurses
    /// more than one level.
    fn drop(&mut self) {
        if !self.is_container() {
            return;
        }
        let mut pending = Vec::new();
        self.take_children(&mut pending);
        while let Some(mut v) = pending.pop() {
            v.take_children(&mut pending);
        }
    }
}

impl Clone for Value {
    /// A deep copy with an explicit stack.
    fn clone(&self) -> Value {
        /// A container copy being filled from its source.
        enum Partial<'v> {
            Array(&'v [Value], Vec<Value>),
            Map(&'v [(Value, Value)], Vec<(Value, Value)>, Option<Value>),
            Tag(u64),
        }
        let mut stack: Vec<Partial<'_>> = Vec::new();
        let mut cur = self;
        loop {
            // Copy `cur`, or open its copy and descend to its first child.
            let mut done = match cur {
                Value::Unsigned(n) => Value::Unsigned(*n),
                Value::Negative(n) => Value::Negative(*n),
                Value::BigNum { negative, magnitude } => {
                    Value::BigNum { negative: *negative, magnitude: magnitude.clone() }
                }
                Value::Float(f) => Value::Float(*f),
                Value::Bytes(b) => Value::Bytes(b.clone()),
                Value::Text(t) => Value::Text(t.clone()),
                Value::Simple(v) => Value::Simple(*v),
                Value::Bool(b) => Value::Bool(*b),
                Value::Null => Value::Null,
                Value::Undefined => Value::Undefined,
                Value::Array(items) if items.is_empty() => Value::Array(Vec::new()),
                Value::Map(pairs) if pairs.is_empty() => Value::Map(Vec::new()),
                Value::Array(items) => {
                    stack.push(Partial::Array(items, Vec::with_capacity(items.len())));
                    cur = &items[0];
                    continue;
                }
                Value::Map(pairs) => {
                    stack.push(Partial::Map(pairs, Vec::with_capacity(pairs.len()), None));
                    cur = &pairs[0].0;
                    continue;
                }
                Value::Tag(t, content) => {
                    stack.push(Partial::Tag(*t));
                    cur = content;
                    continue;
                }
            };
            // Hand the copy to its parent until one has a next child.
            loop {
                let Some(top) = stack.last_mut() else { return done };
                match top {
                    Partial::Tag(t) => {
                        let t = *t;
                        stack.pop();
                        done = Value::Tag(t, Box::new(done));
                        continue;
                    }
                    Partial::Array(src, out) => {
                        let src: &[Value] = src;
                        out.push(done);
                        if let Some(next) = src.get(out.len()) {
                            cur = next;
                            break;
                        }
                    }
                    Partial::Map(src, out, key) => {
                        let src: &[(Value, Value)] = src;
                        match key.take() {
                            None => {
                                *key = Some(done);
                                cur = &src[out.len()].1;
                                break;
                            }
                            Some(k) => {
                                out.push((k, done));
                                if let Some(next) = src.get(out.len()) {
                                    cur = &next.0;
                                    break;
                                }
                            }
                        }
                    }
                }
                done = match stack.pop() {
                    Some(Partial::Array(_, out)) => Value::Array(out),
                    Some(Partial::Map(_, out, _)) => Value::Map(out),
                    _ => unreachable!("tags are closed above"),
                };
            }
        }
    }
}

impl std::fmt::Debug for Value {
    /// The derived format (`Array([Unsigned(1), Null])`, `{:#?}` indented),
    /// written with an explicit stack.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        enum Step<'v> {
            Value(&'v Value, usize),
            Text(&'static str),
            Close(&'static str, usize),
        }
        let pretty = f.alternate();
        let pad = |f: &mut std::fmt::Formatter<'_>, level: usize| -> std::fmt::Result {
            if pretty {
                f.write_str("\n")?;
                for _ in 0..level {
                    f.write_str("    ")?;
                }
            }
            Ok(())
        };
        let mut steps = vec![Step::Value(self, 0)];
        while let Some(step) = steps.pop() {
            let (v, level) = match step {
                Step::Text(t) => {
                    f.write_str(t)?;
                    continue;
                }
                Step::Close(t, level) => {
                    pad(f, level)?;
                    f.write_str(t)?;
                    continue;
                }
                Step::Value(v, level) => (v, level),
            };
            let sep = if pretty { "," } else { ", " };
            match v {
                Value::Unsigned(n) => write!(f, "Unsigned({n})")?,
                Value::Negative(n) => write!(f, "Negative({n})")?,
                Value::BigNum { negative, magnitude } => {
                    write!(f, "BigNum {{ negative: {negative}, magnitude: {magnitude:?} }}")?
                }
                Value::Float(x) => write!(f, "Float({x:?})")?,
                Value::Bytes(b) => write!(f, "Bytes({b:?})")?,
                Value::Text(t) => write!(f, "Text({t:?})")?,
                Value::Simple(x) => write!(f, "Simple({x})")?,
                Value::Bool(b) => write!(f, "Bool({b})")?,
                Value::Null => f.write_str("Null")?,
                Value::Undefined => f.write_str("Undefined")?,
                Value::Array(items) if items.is_empty() => f.write_str("Array([])")?,
                Value::Map(pairs) if pairs.is_empty() => f.write_str("Map([])")?,
                Value::Array(items) => {
                    f.write_str("Array([")?;
                    steps.push(Step::Close("])", level));
                    for (i, item) in items.iter().enumerate().rev() {
                        if pretty || i + 1 < items.len() {
                            steps.push(Step::Text(if pretty { "," } else { ", " }));
                        }
                        steps.push(Step::Value(item, level + 1));
                        if pretty {
                            steps.push(Step::Close("", level + 1));
                        }
                    }
                }
                Value::Map(pairs) => {
                    f.write_str("Map([")?;
                    steps.push(Step::Close("])", level));
                    for (i, (k, x)) in pairs.iter().enumerate().rev() {
                        if pretty || i + 1 < pairs.len() {
                            steps.push(Step::Text(sep));
                        }
                        steps.push(Step::Text(")"));
                        steps.push(Step::Value(x, level + 1));
                        steps.push(Step::Text(", "));
                        steps.push(Step::Value(k, level + 1));
                        steps.push(Step::Text("("));
                        if pretty {
                            steps.push(Step::Close("", level + 1));
                        }
                    }
                }
                Value::Tag(t, content) => {
                    write!(f, "Tag({t}, ")?;
                    steps.push(Step::Text(")"));
                    steps.push(Step::Value(content, level));
                }
            }
        }
        Ok(())
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        let mut pending: Vec<(&Value, &Value)> = vec![(self, other)];
        while let Some((a, b)) = pending.pop() {
            match (a.int_key(), b.int_key()) {
                (Some(x), Some(y)) => {
                    if x != y {
                        return false;
                    }
                    continue;
                }
                (Some(_), None) | (None, Some(_)) => return false,
                (None, None) => {}
            }
            let same = match (a, b) {
                (Value::Float(x), Value::Float(y)) => x.to_bits() == y.to_bits(),
                (Value::Bytes(x), Value::Bytes(y)) => x == y,
                (Value::Text(x), Value::Text(y)) => x == y,
                (Value::Array(x), Value::Array(y)) => {
                    if x.len() != y.len() {
                        return false;
                    }
                    pending.extend(x.iter().zip(y.iter()));
                    true
                }
                (Value::Map(x), Value::Map(y)) => {
                    if x.len() != y.len() {
                        return false;
                    }
                    for ((k1, v1), (k2, v2)) in x.iter().zip(y.iter()) {
                        pending.push((k1, k2));
                        pending.push((v1, v2));
                    }
                    true
                }
                (Value::Tag(t1, c1), Value::Tag(t2, c2)) => {
                    pending.push((c1, c2));
                    t1 == t2
                }
                (Value::Simple(x), Value::Simple(y)) => x == y,
                (Value::Bool(x), Value::Bool(y)) => x == y,
                (Value::Null, Value::Null) | (Value::Undefined, Value::Undefined) => true,
                _ => false,
            };
            if !same {
                return false;
            }
        }
        true
    }
}

impl Eq for Value {}

macro_rules! from_unsigned {
    ($($t:ty),*) => {$(
        impl From<$t> for Value {
            fn from(v: $t) -> Value { Value::Unsigned(v as u64) }
        }
    )*};
}
from_unsigned!(u8, u16, u32, u64, usize);

macro_rules! from_signed {
    ($($t:ty),*) => {$(
        impl From<$t> for Value {
            fn from(v: $t) -> Value {
                let v = v as i64;
                // For v < 0, -1 - v is the bitwise complement of v.
                if v < 0 { Value::Negative(!(v as u64)) } else { Value::Unsigned(v as u64) }
            }
        }
    )*};
}
from_signed!(i8, i16, i32, i64, isize);

impl From<u128> for Value {
    fn from(v: u128) -> Value {
        match u64::try_from(v) {
            Ok(small) => Value::Unsigned(small),
            Err(_) => Value::BigNum { negative: false, magnitude: trimmed_be(v) },
        }
    }
}

impl From<i128> for Value {
    fn from(v: i128) -> Value {
        if v >= 0 {
            return Value::from(v as u128);
        }
        let n = !(v as u128); // -1 - v
        match u64::try_from(n) {
            Ok(small) => Value::Negative(small),
            Err(_) => Value::BigNum { negative: true, magnitude: trimmed_be(n) },
        }
    }
}

impl From<f64> for Value {
    fn from(v: f64) -> Value {
        Value::Float(v)
    }
}

impl From<f32> for Value {
    fn from(v: f32) -> Value {
        Value::Float(f64::from(v))
    }
}

impl From<bool> for Value {
    fn from(v: bool) -> Value {
        Value::Bool(v)
    }
}

impl From<&str> for Value {
    fn from(v: &str) -> Value {
        Value::Text(v.to_owned())
    }
}

impl From<String> for Value {
    fn from(v: String) -> Value {
        Value::Text(v)
    }
}

impl From<&[u8]> for Value {
    fn from(v: &[u8]) -> Value {
        Value::Bytes(v.to_vec())
    }
}

impl From<Vec<u8>> for Value {
    fn from(v: Vec<u8>) -> Value {
        Value::Bytes(v)
    }
}

impl From<Vec<Value>> for Value {
    fn from(v: Vec<Value>) -> Value {
        Value::Array(v)
    }
}

impl From<Vec<(Value, Value)>> for Value {
    fn from(v: Vec<(Value, Value)>) -> Value {
        Value::Map(v)
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    /// `None` is null.
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Null, Into::into)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_conversions_cover_the_edges() {
        assert_eq!(Value::from(-1i64), Value::Negative(0));
        assert!(matches!(Value::from(i64::MIN), Value::Negative(0x7fff_ffff_ffff_ffff)));
        assert!(matches!(Value::from(i8::MIN), Value::Negative(127)));
        assert!(matches!(Value::from(0i32), Value::Unsigned(0)));
        // -2^64 is the smallest plain negative integer.
        assert!(matches!(Value::from(-(1i128 << 64)), Value::Negative(u64::MAX)));
        assert!(matches!(
            Value::from(-(1i128 << 64) - 1),
            Value::BigNum { negative: true, ref magnitude } if magnitude == &[1, 0, 0, 0, 0, 0, 0, 0, 0]
        ));
        assert!(matches!(
            Value::from(1u128 << 64),
            Value::BigNum { negative: false, ref magnitude } if magnitude == &[1, 0, 0, 0, 0, 0, 0, 0, 0]
        ));
        assert!(matches!(Value::from(u64::MAX as u128), Value::Unsigned(u64::MAX)));
    }

    #[test]
    fn integer_accessors_and_equality_by_value() {
        let big =
            Value::BigNum { negative: true, magnitude: vec![0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0] };
        assert_eq!(big.as_i128(), Some(-(1i128 << 64) - 1));
        assert_eq!(big.as_i64(), None);
        assert_eq!(Value::Negative(u64::MAX).as_i128(), Some(-(1i128 << 64)));
        assert_eq!(Value::Negative(u64::MAX).as_i64(), None);
        assert_eq!(Value::Negative((1 << 63) - 1).as_i64(), Some(i64::MIN));
        assert_eq!(Value::Unsigned(u64::MAX).as_u64(), Some(u64::MAX));
        assert_eq!(Value::Unsigned(u64::MAX).as_i64(), None);
        // 17-byte magnitudes do not fit i128.
        let huge = Value::BigNum { negative: false, magnitude: vec![1; 17] };
        assert_eq!(huge.as_i128(), None);
        // i128::MIN = -1 - (2^127 - 1); 2^127 as a negative magnitude is out.
        let min = Value::from(i128::MIN);
        assert_eq!(min.as_i128(), Some(i128::MIN));
        let mut below = vec![0x80];
        below.extend([0; 15]);
        assert_eq!(Value::BigNum { negative: true, magnitude: below }.as_i128(), None);

        assert_eq!(Value::Unsigned(1), Value::BigNum { negative: false, magnitude: vec![0, 1] });
        assert_eq!(Value::Negative(0), Value::Tag(3, Box::new(Value::Bytes(vec![]))));
        assert_ne!(Value::Unsigned(1), Value::Negative(1));
        assert_ne!(Value::Unsigned(1), Value::Float(1.0));
        assert_eq!(Value::bignum(false, &[0, 0, 5]), Value::Unsigned(5));
        assert!(matches!(Value::bignum(false, &[0, 0, 5]), Value::Unsigned(5)));
    }

    #[test]
    fn floats_compare_by_bits() {
        assert_eq!(Value::Float(f64::NAN), Value::Float(f64::NAN));
        assert_ne!(Value::Float(f64::NAN), Value::Float(f64::from_bits(0x7ff8_0000_0000_0001)));
        assert_ne!(Value::Float(0.0), Value::Float(-0.0));
    }

    #[test]
    fn nested_equality_walks_everything() {
        let a = Value::Map(vec![(Value::from("k"), Value::Array(vec![1.into(), Value::Null]))]);
        let mut b = a.clone();
        assert_eq!(a, b);
        if let Value::Map(pairs) = &mut b {
            pairs[0].1 = Value::Array(vec![1.into(), Value::Undefined]);
        }
        assert_ne!(a, b);
        assert_eq!(a.get("k").and_then(|v| v.index(0)).and_then(Value::as_u64), Some(1));
        assert_eq!(a.get("x"), None);
    }
}
