//! The part of one moment's views that every viewer sees alike, written to JSON once.
//!
//! After an action every subscriber gets a frame with their own view of the table, and most of
//! a view is the same for all of them: in 80分 the trick so far, who is winning it, the points,
//! the ruleset; only the viewer's hand, what it may play and what it alone is shown differ.
//! Writing each view whole wrote that common part once for each kind of viewer, and writing
//! JSON was the largest share of the instructions an action cost the server
//! (docs/performance.md, "Eleventh round"). A [`SharedView`] writes a view field by field: a
//! field the game names shared ([`rules::Engine::is_shared_view_field`]: alike in every view of
//! the moment that has it) is written the first time a view of the moment has it, and its text
//! copied into every later view of the same moment that has it. Whether a view has a field is
//! the view's own (the engine built it for that viewer): only the text is shared.
//! The field names are written as they are (they are Rust identifiers, nothing to escape).
//!
//! One `SharedView` serves the views of one moment only: it is made afresh for each.

use std::ops::Range;

use serde::ser::{self, Impossible, Serialize, SerializeStruct, Serializer};

/// The shared fields of one moment's views, as written by the first view that had them.
pub(super) struct SharedView {
    /// Whether a field is shared, by its serialised name (the game's list).
    is_shared: fn(&str) -> bool,
    /// The fields met so far, in the order views have them: a shared one with its text's place
    /// in `text`, a viewer's own with none. The game's list is asked once a field a moment,
    /// not once a field a view (a string compared against two dozen names, for every field of
    /// four or six views an action).
    met: Vec<(&'static str, Option<Range<usize>>)>,
    text: Vec<u8>,
}

impl SharedView {
    /// For the views of one moment of a game whose shared fields `is_shared` names.
    pub(super) fn new(is_shared: fn(&str) -> bool) -> SharedView {
        SharedView {
            is_shared,
            // A view has some thirty fields and up to a kilobyte or two of shared text: room for
            // both at once rather than grown.
            met: Vec::with_capacity(32),
            text: Vec::with_capacity(2048),
        }
    }

    /// Appends `view`'s JSON to `out`. The view must serialise as a struct (every game's does).
    pub(super) fn write<V: Serialize>(&mut self, view: &V, out: &mut Vec<u8>) {
        view.serialize(ViewWriter { shared: self, out })
            .expect("views serialise");
    }
}

/// Writes one view: the struct's braces, commas and names here, each field's value by
/// `serde_json` or copied from what an earlier view of the moment wrote.
struct ViewWriter<'a> {
    shared: &'a mut SharedView,
    out: &'a mut Vec<u8>,
}

/// The fields of the view being written.
struct Fields<'a> {
    shared: &'a mut SharedView,
    out: &'a mut Vec<u8>,
    /// Where in `met` the next field is looked for first.
    next: usize,
    first: bool,
}

impl SerializeStruct for Fields<'_> {
    type Ok = ();
    type Error = serde_json::Error;

    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<(), serde_json::Error> {
        debug_assert!(
            key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'),
            "a field name needs no escaping: {key}"
        );
        if !self.first {
            self.out.push(b',');
        }
        self.first = false;
        self.out.push(b'"');
        self.out.extend_from_slice(key.as_bytes());
        self.out.extend_from_slice(b"\":");
        let shared = &mut *self.shared;
        // Views of one moment have their fields in the same order (a view may lack one another
        // has): the field is looked for where the last one met was found, then among all.
        let found = match shared.met.get(self.next) {
            Some((name, _)) if *name == key => Some(self.next),
            _ => shared.met.iter().position(|(name, _)| *name == key),
        };
        match found {
            Some(i) => {
                self.next = i + 1;
                match shared.met[i].1.clone() {
                    Some(text) => self.out.extend_from_slice(&shared.text[text]),
                    None => value.serialize(&mut serde_json::Serializer::new(&mut *self.out))?,
                }
            }
            None => {
                let start = self.out.len();
                value.serialize(&mut serde_json::Serializer::new(&mut *self.out))?;
                let text = (shared.is_shared)(key).then(|| {
                    let from = shared.text.len();
                    shared.text.extend_from_slice(&self.out[start..]);
                    from..shared.text.len()
                });
                shared.met.push((key, text));
                self.next = shared.met.len();
            }
        }
        Ok(())
    }

    fn end(self) -> Result<(), serde_json::Error> {
        self.out.push(b'}');
        Ok(())
    }
}

fn not_a_struct() -> serde_json::Error {
    ser::Error::custom("a view is written as a struct")
}

/// Only [`Serializer::serialize_struct`] (and `Some` around a struct) is a view; the rest is
/// refused.
impl<'a> Serializer for ViewWriter<'a> {
    type Ok = ();
    type Error = serde_json::Error;
    type SerializeSeq = Impossible<(), serde_json::Error>;
    type SerializeTuple = Impossible<(), serde_json::Error>;
    type SerializeTupleStruct = Impossible<(), serde_json::Error>;
    type SerializeTupleVariant = Impossible<(), serde_json::Error>;
    type SerializeMap = Impossible<(), serde_json::Error>;
    type SerializeStruct = Fields<'a>;
    type SerializeStructVariant = Impossible<(), serde_json::Error>;

    fn serialize_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Fields<'a>, serde_json::Error> {
        self.out.push(b'{');
        Ok(Fields {
            shared: self.shared,
            out: self.out,
            next: 0,
            first: true,
        })
    }

    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), serde_json::Error> {
        value.serialize(self)
    }

    fn serialize_bool(self, _: bool) -> Result<(), serde_json::Error> {
        Err(not_a_struct())
    }
    fn serialize_i8(self, _: i8) -> Result<(), serde_json::Error> {
        Err(not_a_struct())
    }
    fn serialize_i16(self, _: i16) -> Result<(), serde_json::Error> {
        Err(not_a_struct())
    }
    fn serialize_i32(self, _: i32) -> Result<(), serde_json::Error> {
        Err(not_a_struct())
    }
    fn serialize_i64(self, _: i64) -> Result<(), serde_json::Error> {
        Err(not_a_struct())
    }
    fn serialize_u8(self, _: u8) -> Result<(), serde_json::Error> {
        Err(not_a_struct())
    }
    fn serialize_u16(self, _: u16) -> Result<(), serde_json::Error> {
        Err(not_a_struct())
    }
    fn serialize_u32(self, _: u32) -> Result<(), serde_json::Error> {
        Err(not_a_struct())
    }
    fn serialize_u64(self, _: u64) -> Result<(), serde_json::Error> {
        Err(not_a_struct())
    }
    fn serialize_f32(self, _: f32) -> Result<(), serde_json::Error> {
        Err(not_a_struct())
    }
    fn serialize_f64(self, _: f64) -> Result<(), serde_json::Error> {
        Err(not_a_struct())
    }
    fn serialize_char(self, _: char) -> Result<(), serde_json::Error> {
        Err(not_a_struct())
    }
    fn serialize_str(self, _: &str) -> Result<(), serde_json::Error> {
        Err(not_a_struct())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<(), serde_json::Error> {
        Err(not_a_struct())
    }
    fn serialize_none(self) -> Result<(), serde_json::Error> {
        Err(not_a_struct())
    }
    fn serialize_unit(self) -> Result<(), serde_json::Error> {
        Err(not_a_struct())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), serde_json::Error> {
        Err(not_a_struct())
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
    ) -> Result<(), serde_json::Error> {
        Err(not_a_struct())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<(), serde_json::Error> {
        Err(not_a_struct())
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<(), serde_json::Error> {
        Err(not_a_struct())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, serde_json::Error> {
        Err(not_a_struct())
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, serde_json::Error> {
        Err(not_a_struct())
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, serde_json::Error> {
        Err(not_a_struct())
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, serde_json::Error> {
        Err(not_a_struct())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, serde_json::Error> {
        Err(not_a_struct())
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, serde_json::Error> {
        Err(not_a_struct())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::shengji::Board;
    use rules::{Engine, Viewer};

    /// A board part-way through play, and every viewer of it.
    fn board_in_play() -> (Board, Vec<Viewer>) {
        let deal = rules::deal::deal_shengji(
            &rules::deal::Seed([7; 32]),
            1,
            rules::deal::Fixed::default(),
        );
        let mut board = Board::new(&deal, rules::shengji::Ruleset::fujian_2024());
        for _ in 0..11 {
            let seat = Engine::to_act(&board)[0];
            let action = board.legal_actions(seat).remove(0);
            Engine::apply(&mut board, seat, action.taken_by(), action).unwrap();
        }
        let viewers = (0..4)
            .map(Viewer::Seat)
            .chain([Viewer::Spectator, Viewer::Referee])
            .collect();
        (board, viewers)
    }

    /// Each view written with the moment's shared fields reads back as the view itself, and as
    /// the same JSON value `serde_json` writes: only the text of the shared fields is reused.
    #[test]
    fn views_written_with_shared_fields_read_back_as_themselves() {
        let (board, viewers) = board_in_play();
        let mut shared = SharedView::new(Board::is_shared_view_field);
        for v in viewers {
            let view = board.view(v);
            let mut out = Vec::new();
            shared.write(&view, &mut out);
            let text = String::from_utf8(out).unwrap();
            let back: rules::shengji::View = serde_json::from_str(&text).unwrap();
            assert_eq!(back, view, "{v:?}");
            assert_eq!(
                serde_json::from_str::<serde_json::Value>(&text).unwrap(),
                serde_json::to_value(&view).unwrap(),
                "{v:?}"
            );
        }
        // Each field met once for the moment, with its text kept only if it is shared.
        let kept = |field: &str| {
            let mut met = shared.met.iter().filter(|(name, _)| *name == field);
            let (_, text) = met.next().expect("met");
            assert!(met.next().is_none(), "{field} met once");
            text.is_some()
        };
        assert!(kept("plays"), "the trick's plays are shared");
        assert!(!kept("hand"), "a seat's hand is its own");
    }

    /// A field the game does not name shared (the hand) is each viewer's own: written for each
    /// view, never copied from an earlier one.
    #[test]
    fn a_viewers_own_fields_are_never_copied() {
        let (board, _) = board_in_play();
        let mut shared = SharedView::new(Board::is_shared_view_field);
        let mut hands = Vec::new();
        for seat in 0..4 {
            let view = board.view(Viewer::Seat(seat));
            let mut out = Vec::new();
            shared.write(&view, &mut out);
            let back: rules::shengji::View = serde_json::from_slice(&out).unwrap();
            assert_eq!(back.hand, view.hand);
            hands.push(back.hand);
        }
        hands.dedup();
        assert_eq!(hands.len(), 4, "four different hands");
    }

    /// Only a struct is a view.
    #[test]
    fn anything_but_a_struct_is_refused() {
        let mut shared = SharedView::new(|_| true);
        let mut out = Vec::new();
        let refused = [1u8, 2].serialize(ViewWriter {
            shared: &mut shared,
            out: &mut out,
        });
        assert!(refused.is_err());
    }
}
