//! `scenarios/schema.json`, generated from the Rust types: the scenario itself plus, for each
//! protocol, the schema of its `config`, tied in with if/then on the `protocol` name.

use crate::registry::config_schemas;
use crate::scenario::Scenario;
use serde_json::{json, Value};

pub fn scenario_schema() -> Value {
    let mut root = serde_json::to_value(schemars::schema_for!(Scenario)).unwrap_or(Value::Null);
    let configs = config_schemas();
    let names: Vec<&str> = configs.iter().map(|(n, _, _)| *n).collect();
    let mut rules = Vec::new();
    if let Some(defs) = root.get_mut("$defs").and_then(Value::as_object_mut) {
        for (name, type_name, schema) in &configs {
            let mut schema = serde_json::to_value(schema).unwrap_or(Value::Null);
            // Nested definitions move up to the root so every $ref resolves from there.
            if let Some(inner) = schema.as_object_mut().and_then(|o| o.remove("$defs")) {
                if let Some(inner) = inner.as_object() {
                    for (k, v) in inner {
                        defs.insert(k.clone(), v.clone());
                    }
                }
            }
            if let Some(o) = schema.as_object_mut() {
                o.remove("$schema");
            }
            defs.insert(type_name.to_string(), schema);
            rules.push(json!({
                "if": { "properties": { "protocol": { "const": name } } },
                "then": { "properties": { "config": { "$ref": format!("#/$defs/{type_name}") } } }
            }));
        }
        if let Some(spec) = defs.get_mut("ProtocolSpec").and_then(Value::as_object_mut) {
            spec.insert("allOf".into(), Value::Array(rules));
            if let Some(p) = spec
                .get_mut("properties")
                .and_then(|p| p.get_mut("protocol"))
            {
                p["enum"] = json!(names);
            }
        }
    }
    root
}

pub fn scenario_schema_text() -> String {
    let mut text = serde_json::to_string_pretty(&scenario_schema()).unwrap_or_default();
    text.push('\n');
    text
}
