//! `{"kind": "...", ...}` enums whose errors keep their JSON path. Serde's derived internally
//! tagged enums buffer their content, so an error inside one only names the enum's own path;
//! here the variant's fields are read by path-tracking deserialization and the inner path rides
//! in the error message between two `PATH_MARK`s, which `load` splices back into the path.

use serde::de::{DeserializeOwned, Error};
use serde_json::{Map, Value};

pub const PATH_MARK: char = '\u{1}';

/// Read a variant's fields (the object without `kind`) as `T`.
pub fn variant<'de, D: serde::Deserializer<'de>, T: DeserializeOwned>(
    fields: Map<String, Value>,
) -> Result<T, D::Error> {
    serde_path_to_error::deserialize(Value::Object(fields)).map_err(|e| {
        let inner = e.path().to_string();
        D::Error::custom(format!("{PATH_MARK}{inner}{PATH_MARK}{}", e.into_inner()))
    })
}

/// Take the `kind` field out of an enum's object.
pub fn take_kind<E: Error>(fields: &mut Map<String, Value>) -> Result<String, E> {
    match fields.remove("kind") {
        Some(Value::String(k)) => Ok(k),
        Some(_) => Err(E::custom("`kind` must be a string")),
        None => Err(E::missing_field("kind")),
    }
}

/// Split an error message made by `variant` into (inner path, message).
pub fn split_inner_path(message: &str) -> Option<(&str, &str)> {
    let rest = message.strip_prefix(PATH_MARK)?;
    rest.split_once(PATH_MARK)
}

/// `impl Deserialize` for an enum of newtype variants tagged by `kind`.
macro_rules! kind_tagged {
    ($name:ident { $($tag:literal => $variant:ident),* $(,)? }) => {
        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                use serde::de::Error;
                let mut fields = serde_json::Map::<String, serde_json::Value>::deserialize(d)?;
                let kind = $crate::tagged::take_kind::<D::Error>(&mut fields)?;
                match kind.as_str() {
                    $($tag => $crate::tagged::variant::<D, _>(fields).map($name::$variant),)*
                    other => Err(D::Error::unknown_variant(other, &[$($tag),*])),
                }
            }
        }
    };
}
pub(crate) use kind_tagged;
