//! Answer documents as Python objects, serialized straight from their serde types: a
//! struct or map becomes a dict, a sequence a list, a tuple (a position's coordinates,
//! see `nimlab_json::doc::Pos`) a tuple, and a natural number of any size an int.
//!
//! Why not `pythonize`: it holds integers up to 128 bits, and nimlab's documents carry
//! heaps of a thousand digits. A [`nimlab_json::doc::Nat`] past 2^53 − 1 serializes as
//! a newtype struct named [`NAT_DIGITS`] around its digits; this serializer reads the
//! name and makes the int (JSON writes the digits as a string). serde_json's own
//! numbers (the certificate file is a `serde_json::Value`, with arbitrary precision)
//! arrive as a struct of one field holding the number's text, read the same way.

use nimlab_json::doc::NAT_DIGITS;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyInt, PyList, PyTuple};
use pyo3::IntoPyObjectExt;
use serde::ser::{self, Serialize};

/// How serde_json (with `arbitrary_precision`) hands a number to another serializer.
const JSON_NUMBER: &str = "$serde_json::private::Number";

/// `doc` as Python objects.
pub fn to_py<'py, T: Serialize + ?Sized>(py: Python<'py>, doc: &T) -> PyResult<Bound<'py, PyAny>> {
    doc.serialize(ToPy { py }).map_err(|e| e.0)
}

/// A Python exception raised while building the objects.
#[derive(Debug)]
pub struct Error(PyErr);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: std::fmt::Display>(msg: T) -> Self {
        Error(PyValueError::new_err(msg.to_string()))
    }
}

impl From<PyErr> for Error {
    fn from(e: PyErr) -> Self {
        Error(e)
    }
}

type Out<'py> = Result<Bound<'py, PyAny>, Error>;

#[derive(Clone, Copy)]
struct ToPy<'py> {
    py: Python<'py>,
}

impl<'py> ToPy<'py> {
    fn object<T: IntoPyObject<'py>>(self, v: T) -> Out<'py> {
        Ok(v.into_bound_py_any(self.py)?)
    }

    /// An int (or, for serde_json's text of a fraction, a float) from its decimal text.
    fn number(self, text: &Bound<'py, PyAny>) -> Out<'py> {
        let s: String = text.extract()?;
        let is_int = s
            .bytes()
            .enumerate()
            .all(|(i, b)| b.is_ascii_digit() || (i == 0 && b == b'-'));
        if is_int {
            Ok(self.py.get_type::<PyInt>().call1((text,))?)
        } else {
            let x: f64 = s.parse().map_err(<Error as ser::Error>::custom)?;
            self.object(x)
        }
    }

    /// `{name: value}`, as JSON writes an enum variant with content.
    fn tagged(self, name: &str, value: Bound<'py, PyAny>) -> Out<'py> {
        let d = PyDict::new(self.py);
        d.set_item(name, value)?;
        Ok(d.into_any())
    }
}

/// A list or tuple being built; `variant` wraps it in `{variant: …}`.
struct Items<'py> {
    to: ToPy<'py>,
    items: Vec<Bound<'py, PyAny>>,
    tuple: bool,
    variant: Option<&'static str>,
}

impl<'py> Items<'py> {
    fn push<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        self.items.push(v.serialize(self.to)?);
        Ok(())
    }

    fn done(self) -> Out<'py> {
        let py = self.to.py;
        let seq = if self.tuple {
            PyTuple::new(py, self.items)?.into_any()
        } else {
            PyList::new(py, self.items)?.into_any()
        };
        match self.variant {
            Some(name) => self.to.tagged(name, seq),
            None => Ok(seq),
        }
    }
}

/// A dict being built; `variant` wraps it in `{variant: …}`; `number` marks
/// serde_json's number struct, whose one field is the number's text.
struct Fields<'py> {
    to: ToPy<'py>,
    dict: Bound<'py, PyDict>,
    key: Option<Bound<'py, PyAny>>,
    variant: Option<&'static str>,
    number: Option<Bound<'py, PyAny>>,
}

impl<'py> Fields<'py> {
    fn new(to: ToPy<'py>, variant: Option<&'static str>) -> Self {
        Fields {
            to,
            dict: PyDict::new(to.py),
            key: None,
            variant,
            number: None,
        }
    }

    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, v: &T) -> Result<(), Error> {
        let value = v.serialize(self.to)?;
        if key == JSON_NUMBER {
            self.number = Some(value);
        } else {
            self.dict.set_item(key, value)?;
        }
        Ok(())
    }

    fn done(self) -> Out<'py> {
        if let Some(text) = self.number {
            return self.to.number(&text);
        }
        match self.variant {
            Some(name) => self.to.tagged(name, self.dict.into_any()),
            None => Ok(self.dict.into_any()),
        }
    }
}

impl<'py> ser::Serializer for ToPy<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;
    type SerializeSeq = Items<'py>;
    type SerializeTuple = Items<'py>;
    type SerializeTupleStruct = Items<'py>;
    type SerializeTupleVariant = Items<'py>;
    type SerializeMap = Fields<'py>;
    type SerializeStruct = Fields<'py>;
    type SerializeStructVariant = Fields<'py>;

    fn serialize_bool(self, v: bool) -> Out<'py> {
        self.object(v)
    }
    fn serialize_i8(self, v: i8) -> Out<'py> {
        self.object(v)
    }
    fn serialize_i16(self, v: i16) -> Out<'py> {
        self.object(v)
    }
    fn serialize_i32(self, v: i32) -> Out<'py> {
        self.object(v)
    }
    fn serialize_i64(self, v: i64) -> Out<'py> {
        self.object(v)
    }
    fn serialize_i128(self, v: i128) -> Out<'py> {
        self.object(v)
    }
    fn serialize_u8(self, v: u8) -> Out<'py> {
        self.object(v)
    }
    fn serialize_u16(self, v: u16) -> Out<'py> {
        self.object(v)
    }
    fn serialize_u32(self, v: u32) -> Out<'py> {
        self.object(v)
    }
    fn serialize_u64(self, v: u64) -> Out<'py> {
        self.object(v)
    }
    fn serialize_u128(self, v: u128) -> Out<'py> {
        self.object(v)
    }
    fn serialize_f32(self, v: f32) -> Out<'py> {
        self.object(v)
    }
    fn serialize_f64(self, v: f64) -> Out<'py> {
        self.object(v)
    }
    fn serialize_char(self, v: char) -> Out<'py> {
        self.object(v)
    }
    fn serialize_str(self, v: &str) -> Out<'py> {
        self.object(v)
    }
    fn serialize_bytes(self, v: &[u8]) -> Out<'py> {
        Ok(PyBytes::new(self.py, v).into_any())
    }
    fn serialize_none(self) -> Out<'py> {
        Ok(self.py.None().into_bound(self.py))
    }
    fn serialize_some<T: Serialize + ?Sized>(self, v: &T) -> Out<'py> {
        v.serialize(self)
    }
    fn serialize_unit(self) -> Out<'py> {
        self.serialize_none()
    }
    fn serialize_unit_struct(self, _: &'static str) -> Out<'py> {
        self.serialize_none()
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Out<'py> {
        self.object(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        v: &T,
    ) -> Out<'py> {
        let inner = v.serialize(self)?;
        if name == NAT_DIGITS {
            self.number(&inner)
        } else {
            Ok(inner)
        }
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        v: &T,
    ) -> Out<'py> {
        let inner = v.serialize(self)?;
        self.tagged(variant, inner)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Items<'py>, Error> {
        Ok(Items {
            to: self,
            items: Vec::with_capacity(len.unwrap_or(0)),
            tuple: false,
            variant: None,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<Items<'py>, Error> {
        Ok(Items {
            to: self,
            items: Vec::with_capacity(len),
            tuple: true,
            variant: None,
        })
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Items<'py>, Error> {
        self.serialize_tuple(len)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Items<'py>, Error> {
        // JSON writes `{variant: [...]}`: a list, as every JSON array but a position.
        Ok(Items {
            to: self,
            items: Vec::with_capacity(len),
            tuple: false,
            variant: Some(variant),
        })
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Fields<'py>, Error> {
        Ok(Fields::new(self, None))
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Fields<'py>, Error> {
        Ok(Fields::new(self, None))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Fields<'py>, Error> {
        Ok(Fields::new(self, Some(variant)))
    }
}

/// The four serde traits of a sequence (a list, a tuple, a tuple struct or variant)
/// differ only in the name of the method that adds an element: each pushes it.
macro_rules! serialize_items {
    ($($trait:ident :: $add:ident),*) => {$(
        impl<'py> ser::$trait for Items<'py> {
            type Ok = Bound<'py, PyAny>;
            type Error = Error;
            fn $add<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
                self.push(v)
            }
            fn end(self) -> Out<'py> {
                self.done()
            }
        }
    )*};
}

serialize_items!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

impl<'py> ser::SerializeMap for Fields<'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, k: &T) -> Result<(), Error> {
        self.key = Some(k.serialize(self.to)?);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, v: &T) -> Result<(), Error> {
        let key = self
            .key
            .take()
            .ok_or_else(|| <Error as ser::Error>::custom("a map value without its key"))?;
        self.dict.set_item(key, v.serialize(self.to)?)?;
        Ok(())
    }
    fn end(self) -> Out<'py> {
        self.done()
    }
}

/// A struct and a struct variant are serialized alike: each field into the dict.
macro_rules! serialize_fields {
    ($($trait:ident),*) => {$(
        impl<'py> ser::$trait for Fields<'py> {
            type Ok = Bound<'py, PyAny>;
            type Error = Error;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                v: &T,
            ) -> Result<(), Error> {
                self.field(key, v)
            }
            fn end(self) -> Out<'py> {
                self.done()
            }
        }
    )*};
}

serialize_fields!(SerializeStruct, SerializeStructVariant);
