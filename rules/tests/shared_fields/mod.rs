//! The check both games' tests make of `Engine::is_shared_view_field`: the server writes a field
//! named there once for all the views of a moment and copies it into every view that has it, so
//! it must be alike in every view that has it.

use std::collections::BTreeSet;

use rules::Engine;
use serde_json::{Map, Value};

/// What the views of the moments checked so far showed.
#[derive(Default)]
pub struct SharedFields {
    /// Fields named shared that were met in two views or more of one moment.
    pub shared_met: BTreeSet<String>,
    /// Fields not named shared whose content differed between two views of one moment.
    pub differing: BTreeSet<String>,
}

impl SharedFields {
    /// Checks the views of one moment, one a viewer: fails if a field `E` names shared differs
    /// between two views that have it.
    pub fn check<E: Engine>(&mut self, views: impl IntoIterator<Item = E::View>) {
        let views: Vec<Map<String, Value>> = views
            .into_iter()
            .map(|v| match serde_json::to_value(v).unwrap() {
                Value::Object(fields) => fields,
                other => panic!("a view is an object: {other}"),
            })
            .collect();
        let names: BTreeSet<&String> = views.iter().flat_map(|v| v.keys()).collect();
        for name in names {
            let shown: Vec<&Value> = views.iter().filter_map(|v| v.get(name)).collect();
            let alike = shown.iter().all(|v| *v == shown[0]);
            if E::is_shared_view_field(name) {
                assert!(alike, "{name} is named shared but differs: {shown:?}");
                if shown.len() > 1 {
                    self.shared_met.insert(name.clone());
                }
            } else if !alike {
                self.differing.insert(name.clone());
            }
        }
    }
}
