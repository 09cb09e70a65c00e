//! Arrows run one way (design.md): inside each crate no two modules import each other, directly
//! or round a longer loop, and the web client's ES modules neither.
//!
//! The Rust side reads every crate as the compiler does: from its root (`lib.rs`, `main.rs`)
//! down its `mod` declarations, each file parsed with `syn`. A node is a file; inline modules
//! (`mod codes { … }`) belong to their file. An arrow `a → b` means code in file `a` names an
//! item defined in file `b`:
//!
//! - a `use` of an item, however it is written: `use crate::b::X`, groups and nested groups
//!   (`use crate::{b::X, c::{d::Y}}`), `super::` (as many as it takes: `super::super::X` from a
//!   folder's child reaches its parent's parent), `self::`, renames;
//! - a path in code: `crate::b::f()`, `super::b::T`, `b::f()` for a child module `b`, also
//!   inside macro calls (`format!("{}", crate::b::f())`) and `use` inside function bodies;
//! - a name a glob brought in (`use super::*`): an arrow to where each name used is defined,
//!   not to the whole module;
//! - a name the module re-exports and also uses itself (`pub use config::Config;` then
//!   `Config` in its own code).
//!
//! What is not an arrow: `mod b;` (the tree, not a use), `pub use b::X` alone (a re-export only
//! names `X` for others; whoever imports `X` through it gets the arrow to `b`, where `X` is
//! defined), a `use` of a module itself (its items, when used, give the arrows), a method call
//! (`t.act()` names no module: an `impl` in another file extends its type, and using the type
//! is the arrow), and anything under `#[cfg(test)]` or `#[cfg(doc)]` (a test module may import
//! its parent; a doc link is not code) — items after a `#[cfg(test)] mod tests;` still count.
//!
//! **The crate root is a module like any other.** `lib.rs` declares every module and re-exports
//! their items (no arrows), but an item *defined* in `lib.rs` and used by `http.rs` is an arrow
//! `http.rs → lib.rs`, and `lib.rs` calling `http::serve` is `lib.rs → http.rs`: a cycle. So the
//! root defines nothing its modules need: it is the crate's map and front door (it may start
//! things, calling into its modules), and what modules share lives in a module of its own
//! (`server/src/config.rs`). The same holds for a folder's `mod.rs`: its files may use what it
//! defines only if it does not use them back.
//!
//! The web client: an `import … from "./a.js"` in `b.js` is an arrow b → a.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use proc_macro2::{Delimiter, Spacing, TokenTree};
use syn::parse::{ParseStream, Parser};
use syn::{Attribute, Item, UseTree, Visibility};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, ext, out);
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
}

// --- reading a crate ---------------------------------------------------------------------------

/// One name a `use` binds: `use a::b::{c as d}` binds `d` to the path `a::b::c`, written in
/// the module that holds the `use` (paths resolve from there).
struct Binding {
    path: Vec<String>,
    /// `pub`, `pub(crate)`, `pub(super)`: a re-export, an arrow only where the module itself
    /// uses the name.
    public: bool,
    line: usize,
}

/// One module of the tree: a file, or an inline `mod x { … }` inside one.
#[derive(Default)]
struct Module {
    /// The file it is written in: the node of the graph.
    file: String,
    parent: Option<usize>,
    /// Where its `mod x;` files are: `src/` for the root, `src/a/` for `src/a.rs` or
    /// `src/a/mod.rs`.
    dir: PathBuf,
    children: BTreeMap<String, usize>,
    /// The items it defines (for names a glob brings in).
    defined: BTreeSet<String>,
    bindings: BTreeMap<String, Binding>,
    /// `use x::*`: the path and whether it is a re-export.
    globs: Vec<(Vec<String>, bool, usize)>,
    /// Paths and names in its code (not in `use` items), with their lines.
    mentions: Vec<(Vec<String>, usize)>,
}

/// A crate's modules; the root is 0.
struct Tree {
    modules: Vec<Module>,
}

/// Reads a file of the tree: the disk for the real crates, a map for the synthetic ones.
type Read<'a> = &'a dyn Fn(&Path) -> Option<String>;

/// Parses a file (or an inline module's body) into items, each with its own tokens, which the
/// path scan walks (syn without its printing feature cannot give them back).
fn items(input: ParseStream) -> syn::Result<Vec<(Item, Vec<TokenTree>)>> {
    input.call(Attribute::parse_inner)?;
    let mut out = Vec::new();
    while !input.is_empty() {
        let start = input.cursor();
        let item: Item = input.parse()?;
        let end = input.cursor();
        let mut tokens = Vec::new();
        let mut at = start;
        while at != end {
            let (tt, next) = at.token_tree().expect("the item's tokens");
            tokens.push(tt);
            at = next;
        }
        out.push((item, tokens));
    }
    Ok(out)
}

/// `#[cfg(test)]` or `#[cfg(doc)]`: not compiled into the crate's code.
fn not_code(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && matches!(&a.meta, syn::Meta::List(l)
                if matches!(l.tokens.to_string().as_str(), "test" | "doc"))
    })
}

fn line(span: proc_macro2::Span) -> usize {
    span.start().line
}

/// Flattens a use tree into its bindings and globs, each with its whole path.
fn flatten(
    tree: &UseTree,
    prefix: &mut Vec<String>,
    out: &mut Vec<(Option<String>, Vec<String>, usize)>,
) {
    match tree {
        UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            flatten(&p.tree, prefix, out);
            prefix.pop();
        }
        UseTree::Name(n) if n.ident == "self" => {
            let name = prefix.last().cloned();
            out.push((name, prefix.clone(), line(n.ident.span())));
        }
        UseTree::Name(n) => {
            let mut path = prefix.clone();
            path.push(n.ident.to_string());
            out.push((Some(n.ident.to_string()), path, line(n.ident.span())));
        }
        UseTree::Rename(r) => {
            let mut path = prefix.clone();
            if r.ident != "self" {
                path.push(r.ident.to_string());
            }
            out.push((Some(r.rename.to_string()), path, line(r.ident.span())));
        }
        // A glob has no name of its own.
        UseTree::Glob(g) => out.push((None, prefix.clone(), line(g.star_token.span))),
        UseTree::Group(g) => {
            for t in &g.items {
                flatten(t, prefix, out);
            }
        }
    }
}

fn punct(tt: Option<&TokenTree>, c: char) -> bool {
    matches!(tt, Some(TokenTree::Punct(p)) if p.as_char() == c)
}

/// `::` at `tokens[i]`.
fn path_sep(tokens: &[TokenTree], i: usize) -> bool {
    matches!(tokens.get(i), Some(TokenTree::Punct(p)) if p.as_char() == ':' && p.spacing() == Spacing::Joint)
        && punct(tokens.get(i + 1), ':')
}

/// Idents that name what is being declared, not something used.
const DECLARING: [&str; 10] = [
    "fn", "struct", "enum", "union", "trait", "type", "const", "static", "mod", "let",
];

/// Every path (`a::b::c`, also `a::{b, c::d}` in a body's `use`) and lone name in some code.
/// A `#[cfg(test)]` or `#[cfg(doc)]` inside it skips what it is on (up to the next `;`, `,`
/// or block at its level).
fn scan(tokens: &[TokenTree], prefix: &[String], out: &mut Vec<(Vec<String>, usize)>) {
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            TokenTree::Punct(p) if p.as_char() == '#' => {
                if let Some(TokenTree::Group(g)) = tokens.get(i + 1) {
                    let text = g.stream().to_string();
                    if g.delimiter() == Delimiter::Bracket
                        && (text == "cfg (test)" || text == "cfg (doc)")
                    {
                        i += 2;
                        while i < tokens.len() {
                            match &tokens[i] {
                                TokenTree::Punct(p) if matches!(p.as_char(), ';' | ',') => break,
                                TokenTree::Group(g) if g.delimiter() == Delimiter::Brace => break,
                                _ => i += 1,
                            }
                        }
                    }
                }
                i += 1;
            }
            TokenTree::Group(g) => {
                scan(&g.stream().into_iter().collect::<Vec<_>>(), &[], out);
                i += 1;
            }
            TokenTree::Ident(id) => {
                let before = i.checked_sub(1).map(|j| &tokens[j]);
                let skip = punct(before, '.')
                    || punct(before, '\'')
                    || punct(before, '$')
                    || (i >= 2 && path_sep(tokens, i - 2))
                    || matches!(before, Some(TokenTree::Ident(b)) if DECLARING.contains(&b.to_string().as_str()));
                let at = line(id.span());
                let mut path: Vec<String> = prefix.to_vec();
                path.push(id.to_string());
                i += 1;
                while path_sep(tokens, i) {
                    match tokens.get(i + 2) {
                        Some(TokenTree::Ident(next)) => {
                            path.push(next.to_string());
                            i += 3;
                        }
                        // `use a::{b, c::d}` in a function body: each part after the prefix.
                        Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => {
                            let inner: Vec<TokenTree> = g.stream().into_iter().collect();
                            for part in inner.split(|t| punct(Some(t), ',')) {
                                scan(part, &path, out);
                            }
                            i += 3;
                            break;
                        }
                        _ => break,
                    }
                }
                // A lone name followed by one `:` is a field or a named argument.
                let field = path.len() == 1 && punct(tokens.get(i), ':') && !path_sep(tokens, i);
                if !skip && !field {
                    out.push((path, at));
                }
            }
            _ => i += 1,
        }
    }
}

impl Tree {
    /// Reads the crate whose root file is `file` (`src/lib.rs`), following its `mod`s.
    fn read(file: &Path, read: Read) -> Tree {
        let mut tree = Tree {
            modules: Vec::new(),
        };
        let dir = file.parent().unwrap().to_path_buf();
        tree.read_file(file, None, String::new(), dir, read);
        tree
    }

    fn read_file(
        &mut self,
        file: &Path,
        parent: Option<usize>,
        name: String,
        dir: PathBuf,
        read: Read,
    ) -> usize {
        let text = read(file).unwrap_or_else(|| panic!("{}: cannot read", file.display()));
        let parsed = items
            .parse_str(&text)
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let id = self.add(file, parent, name, dir);
        self.read_items(id, parsed, read);
        id
    }

    fn add(&mut self, file: &Path, parent: Option<usize>, name: String, dir: PathBuf) -> usize {
        let id = self.modules.len();
        self.modules.push(Module {
            file: file.display().to_string(),
            parent,
            dir,
            ..Module::default()
        });
        if let Some(p) = parent {
            self.modules[p].children.insert(name, id);
        }
        id
    }

    fn read_items(&mut self, id: usize, parsed: Vec<(Item, Vec<TokenTree>)>, read: Read) {
        for (item, tokens) in parsed {
            if not_code(item_attrs(&item)) {
                continue;
            }
            match &item {
                Item::Mod(x) => {
                    let name = x.ident.to_string();
                    let dir = self.modules[id].dir.join(&name);
                    if x.content.is_some() {
                        // An inline module: its body is the last token, a `{ … }` group.
                        let Some(TokenTree::Group(body)) = tokens.last() else {
                            unreachable!("an inline module ends with its body")
                        };
                        let file = PathBuf::from(&self.modules[id].file);
                        let child = self.add(&file, Some(id), name, dir);
                        let parsed = items.parse2(body.stream()).expect("parsed once already");
                        self.read_items(child, parsed, read);
                    } else {
                        let flat = self.modules[id].dir.join(format!("{name}.rs"));
                        let file = if read(&flat).is_some() {
                            flat
                        } else {
                            dir.join("mod.rs")
                        };
                        self.read_file(&file, Some(id), name, dir, read);
                    }
                }
                Item::Use(u) => {
                    if u.leading_colon.is_some() {
                        continue; // `use ::std::…`: another crate
                    }
                    let public = !matches!(u.vis, Visibility::Inherited);
                    let mut flat = Vec::new();
                    flatten(&u.tree, &mut Vec::new(), &mut flat);
                    let m = &mut self.modules[id];
                    for (name, path, line) in flat {
                        match name {
                            Some(name) => {
                                m.bindings.insert(name, Binding { path, public, line });
                            }
                            None => m.globs.push((path, public, line)),
                        }
                    }
                }
                _ => {
                    let m = &mut self.modules[id];
                    if let Some(name) = defines(&item) {
                        m.defined.insert(name);
                    }
                    scan(&tokens, &[], &mut m.mentions);
                }
            }
        }
    }
}

fn item_attrs(item: &Item) -> &[Attribute] {
    match item {
        Item::Const(x) => &x.attrs,
        Item::Enum(x) => &x.attrs,
        Item::ExternCrate(x) => &x.attrs,
        Item::Fn(x) => &x.attrs,
        Item::ForeignMod(x) => &x.attrs,
        Item::Impl(x) => &x.attrs,
        Item::Macro(x) => &x.attrs,
        Item::Mod(x) => &x.attrs,
        Item::Static(x) => &x.attrs,
        Item::Struct(x) => &x.attrs,
        Item::Trait(x) => &x.attrs,
        Item::TraitAlias(x) => &x.attrs,
        Item::Type(x) => &x.attrs,
        Item::Union(x) => &x.attrs,
        Item::Use(x) => &x.attrs,
        _ => &[],
    }
}

fn defines(item: &Item) -> Option<String> {
    Some(match item {
        Item::Const(x) => x.ident.to_string(),
        Item::Enum(x) => x.ident.to_string(),
        Item::Fn(x) => x.sig.ident.to_string(),
        Item::Macro(x) => x.ident.as_ref()?.to_string(),
        Item::Static(x) => x.ident.to_string(),
        Item::Struct(x) => x.ident.to_string(),
        Item::Trait(x) => x.ident.to_string(),
        Item::TraitAlias(x) => x.ident.to_string(),
        Item::Type(x) => x.ident.to_string(),
        Item::Union(x) => x.ident.to_string(),
        _ => return None,
    })
}

// --- resolving names ---------------------------------------------------------------------------

/// What a path names, by the module that defines it.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Target {
    Module(usize),
    /// An item (or something inside one: a variant, a method) defined in this module.
    Item(usize),
    /// Another crate, a local name, a type parameter: not this crate's.
    Outside,
}

/// Bindings and globs point at each other; a path that needs more steps than this is a loop of
/// re-exports (the compiler refuses those too).
const DEPTH: usize = 32;

impl Tree {
    /// A path written in module `from`.
    fn resolve(&self, from: usize, path: &[String], depth: usize) -> Target {
        let Some((first, rest)) = path.split_first() else {
            return Target::Module(from);
        };
        if depth > DEPTH {
            return Target::Outside;
        }
        let start = match first.as_str() {
            "crate" => Target::Module(0),
            "self" => Target::Module(from),
            "super" => match self.modules[from].parent {
                Some(p) => Target::Module(p),
                None => return Target::Outside,
            },
            name => match self.name_in(from, name, depth) {
                // A name of its own module's items is not a path to anywhere else.
                Some(t) => t,
                None => return Target::Outside,
            },
        };
        match start {
            Target::Module(m) => self.walk(m, rest, depth),
            other => other,
        }
    }

    /// Goes down `rest` from module `m`.
    fn walk(&self, mut m: usize, rest: &[String], depth: usize) -> Target {
        for seg in rest {
            if seg == "self" {
                continue; // `a::{self}` in a body's `use`
            }
            if seg == "super" {
                match self.modules[m].parent {
                    Some(p) => m = p,
                    None => return Target::Outside,
                }
                continue;
            }
            match self.name_in(m, seg, depth) {
                Some(Target::Module(next)) => m = next,
                Some(other) => return other,
                // Not a module nor imported: an item of this module (or unknown to us).
                None => return Target::Item(m),
            }
        }
        Target::Module(m)
    }

    /// What `name` means in module `m` through its children, its `use`s and its globs; `None`
    /// when it is none of those (then it is `m`'s own item, a local, or another crate).
    fn name_in(&self, m: usize, name: &str, depth: usize) -> Option<Target> {
        let module = &self.modules[m];
        if let Some(&child) = module.children.get(name) {
            return Some(Target::Module(child));
        }
        if let Some(b) = module.bindings.get(name) {
            return Some(self.resolve(m, &b.path, depth + 1));
        }
        if module.defined.contains(name) {
            return Some(Target::Item(m));
        }
        for (glob, _, _) in &module.globs {
            if let Target::Module(g) = self.resolve(m, glob, depth + 1) {
                if g != m {
                    if let Some(t) = self.name_in(g, name, depth + 1) {
                        return Some(t);
                    }
                }
            }
        }
        None
    }

    /// The module whose file holds module `m`: `m` itself, or the file an inline module is in.
    fn file_of(&self, t: Target) -> Option<&str> {
        match t {
            Target::Module(m) | Target::Item(m) => Some(&self.modules[m].file),
            Target::Outside => None,
        }
    }

    /// Every arrow between the crate's files, each with the first place that makes it.
    fn arrows(&self) -> BTreeMap<(String, String), String> {
        let mut out = BTreeMap::new();
        for (id, m) in self.modules.iter().enumerate() {
            let mut add = |t: Target, line: usize, path: &[String]| {
                if let Some(to) = self.file_of(t) {
                    if to != m.file {
                        out.entry((m.file.clone(), to.to_string()))
                            .or_insert_with(|| format!("{}:{line}: {}", m.file, path.join("::")));
                    }
                }
            };
            for b in m.bindings.values() {
                // A private import of an item; a module's import gives arrows where it is used.
                let t = self.resolve(id, &b.path, 0);
                if !b.public && matches!(t, Target::Item(_)) {
                    add(t, b.line, &b.path);
                }
            }
            for (glob, public, line) in &m.globs {
                // `use Enum::*` imports an item's parts: an arrow to the item's module.
                let t = self.resolve(id, glob, 0);
                if !public && matches!(t, Target::Item(_)) {
                    add(t, *line, glob);
                }
            }
            for (path, line) in &m.mentions {
                let t = if path.len() == 1 {
                    // A lone name: only what is imported under it (by `use` or a glob) points
                    // elsewhere.
                    if m.defined.contains(&path[0]) || m.children.contains_key(&path[0]) {
                        continue;
                    }
                    match self.name_in(id, &path[0], 0) {
                        // A module's bare name is not a use of it (a local or a field of
                        // the same name, most likely).
                        Some(Target::Module(_)) | None => continue,
                        Some(t) => t,
                    }
                } else {
                    self.resolve(id, path, 0)
                };
                add(t, *line, path);
            }
        }
        out
    }
}

// --- cycles ------------------------------------------------------------------------------------

/// The strongly connected components of more than one node (Tarjan): each is a set of files
/// that all reach each other, so every cycle lies inside one of them.
fn tangles<N: Ord + Clone>(graph: &BTreeMap<N, BTreeSet<N>>) -> Vec<Vec<N>> {
    struct State<N> {
        index: BTreeMap<N, usize>,
        low: BTreeMap<N, usize>,
        stack: Vec<N>,
        on_stack: BTreeSet<N>,
        out: Vec<Vec<N>>,
    }
    fn visit<N: Ord + Clone>(n: &N, g: &BTreeMap<N, BTreeSet<N>>, s: &mut State<N>) {
        let i = s.index.len();
        s.index.insert(n.clone(), i);
        s.low.insert(n.clone(), i);
        s.stack.push(n.clone());
        s.on_stack.insert(n.clone());
        for m in g.get(n).into_iter().flatten() {
            if !s.index.contains_key(m) {
                visit(m, g, s);
                let low = s.low[n].min(s.low[m]);
                s.low.insert(n.clone(), low);
            } else if s.on_stack.contains(m) {
                let low = s.low[n].min(s.index[m]);
                s.low.insert(n.clone(), low);
            }
        }
        if s.low[n] == s.index[n] {
            let mut component = Vec::new();
            while let Some(m) = s.stack.pop() {
                s.on_stack.remove(&m);
                let done = &m == n;
                component.push(m);
                if done {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                s.out.push(component);
            }
        }
    }
    let mut s = State {
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for n in graph.keys() {
        if !s.index.contains_key(n) {
            visit(n, graph, &mut s);
        }
    }
    s.out.sort();
    s.out
}

/// A shortest loop from `start` back to it inside `nodes` (breadth first), for the report.
fn a_loop(
    graph: &BTreeMap<String, BTreeSet<String>>,
    start: &str,
    nodes: &[String],
) -> Vec<String> {
    let mut came: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(n) = queue.pop_front() {
        for m in graph.get(n).into_iter().flatten() {
            if !nodes.contains(m) {
                continue;
            }
            if m == start {
                let mut path = vec![n.to_string()];
                let mut at = n;
                while at != start {
                    at = came[at];
                    path.push(at.to_string());
                }
                path.reverse();
                path.push(start.to_string());
                return path;
            }
            if !came.contains_key(m.as_str()) && m != start {
                came.insert(m, n);
                queue.push_back(m);
            }
        }
    }
    vec![start.to_string()]
}

/// Every tangle in words: an example loop and every arrow inside it, with where it is made.
fn report(arrows: &BTreeMap<(String, String), String>) -> Vec<String> {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, to) in arrows.keys() {
        graph.entry(from.clone()).or_default().insert(to.clone());
        graph.entry(to.clone()).or_default();
    }
    tangles(&graph)
        .into_iter()
        .map(|nodes| {
            let mut text = format!(
                "an import cycle: {}\n  its arrows:",
                a_loop(&graph, &nodes[0], &nodes).join(" → ")
            );
            for ((from, to), at) in arrows {
                if nodes.contains(from) && nodes.contains(to) {
                    text.push_str(&format!("\n    {from} → {to}   ({at})"));
                }
            }
            text
        })
        .collect()
}

// --- the real crates ---------------------------------------------------------------------------

/// Every crate root of the workspace: libraries and binaries.
fn crate_roots() -> Vec<PathBuf> {
    let mut roots = Vec::new();
    for krate in ["rules", "protocol", "server", "bots", "tests", "tournament"] {
        for file in ["lib.rs", "main.rs"] {
            let p = root().join(krate).join("src").join(file);
            if p.exists() {
                roots.push(p);
            }
        }
    }
    roots
}

/// A path as the report shows it: from the workspace's root.
fn shown(p: &Path) -> String {
    p.strip_prefix(root()).unwrap_or(p).display().to_string()
}

#[test]
fn no_rust_module_imports_a_module_that_imports_it() {
    let read = |p: &Path| std::fs::read_to_string(root().join(p)).ok();
    let mut arrows: BTreeMap<(String, String), String> = BTreeMap::new();
    let mut modules = 0;
    for krate in crate_roots() {
        let tree = Tree::read(Path::new(&shown(&krate)), &read);
        modules += tree.modules.len();
        arrows.extend(tree.arrows());
    }
    assert!(modules > 100, "the crates' modules were found ({modules})");
    let cycles = report(&arrows);
    assert!(
        cycles.is_empty(),
        "{} tangle(s) of modules that import each other (design.md: arrows run one way):\n\n{}\n",
        cycles.len(),
        cycles.join("\n\n")
    );
}

#[test]
fn no_web_client_module_imports_one_that_imports_it() {
    let src = root().join("web-client/src");
    let mut fs = Vec::new();
    files(&src, "js", &mut fs);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in &fs {
        let me = f.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(f).unwrap();
        let mut to = BTreeSet::new();
        for line in text.lines() {
            let line = line.trim();
            if !(line.starts_with("import")
                || line.starts_with("} from")
                || line.starts_with("export"))
            {
                continue;
            }
            if let Some(i) = line.find("\"./").or_else(|| line.find("'./")) {
                let name: String = line[i + 3..]
                    .chars()
                    .take_while(|c| *c != '"' && *c != '\'')
                    .collect();
                to.insert(name);
            }
        }
        graph.insert(me, to);
    }
    assert!(graph.len() > 5, "the web client's modules were found");
    let tangled = tangles(&graph);
    assert!(
        tangled.is_empty(),
        "web-client: modules that import each other: {tangled:?}"
    );
}

// --- the checker's own tests, on tiny synthetic crates -----------------------------------------

/// The tangles of a crate given as (path, text) pairs, rooted at `src/lib.rs`.
fn tangles_of(files: &[(&str, &str)]) -> Vec<String> {
    let map: BTreeMap<PathBuf, String> = files
        .iter()
        .map(|(p, t)| (PathBuf::from(p), t.to_string()))
        .collect();
    let read = |p: &Path| map.get(p).cloned();
    report(&Tree::read(Path::new("src/lib.rs"), &read).arrows())
}

fn assert_cycle(files: &[(&str, &str)], through: &[&str]) {
    let found = tangles_of(files);
    assert_eq!(found.len(), 1, "one tangle expected: {found:#?}");
    for f in through {
        assert!(found[0].contains(&format!("{f} →")), "{f} in {}", found[0]);
    }
}

#[test]
fn a_direct_use_both_ways_is_a_cycle() {
    assert_cycle(
        &[
            ("src/lib.rs", "mod a; mod b;"),
            ("src/a.rs", "use crate::b::B; pub struct A;"),
            ("src/b.rs", "use crate::a::A; pub struct B;"),
        ],
        &["src/a.rs", "src/b.rs"],
    );
}

#[test]
fn grouped_and_nested_uses_are_read() {
    assert_cycle(
        &[
            ("src/lib.rs", "mod a; mod x;"),
            (
                "src/a.rs",
                "use crate::{x::{b::{B, C}}, other}; pub struct A;",
            ),
            ("src/x/mod.rs", "pub mod b;"),
            (
                "src/x/b.rs",
                "use crate::{a::A}; pub struct B; pub struct C;",
            ),
        ],
        &["src/a.rs", "src/x/b.rs"],
    );
}

#[test]
fn super_and_self_paths_are_followed() {
    // Two files of one folder through `super::`, and the root through `self::`.
    assert_cycle(
        &[
            ("src/lib.rs", "mod f;"),
            ("src/f/mod.rs", "mod b; mod c;"),
            ("src/f/b.rs", "use super::c::C; pub struct B;"),
            ("src/f/c.rs", "use self::super::b::B; pub struct C;"),
        ],
        &["src/f/b.rs", "src/f/c.rs"],
    );
}

#[test]
fn a_folders_child_importing_its_parents_parent_is_an_arrow() {
    assert_cycle(
        &[
            (
                "src/lib.rs",
                "mod a; pub struct Config; pub fn start() { a::b::run(); }",
            ),
            ("src/a/mod.rs", "pub mod b;"),
            ("src/a/b.rs", "use super::super::Config; pub fn run() {}"),
        ],
        &["src/lib.rs", "src/a/b.rs"],
    );
}

#[test]
fn the_crate_root_counts_like_any_module() {
    // http.rs uses the root's Config; the root calls http: the arrow back up.
    let files = [
        (
            "src/lib.rs",
            "mod http; pub struct Config; pub fn start(c: Config) { http::serve(c) }",
        ),
        (
            "src/http.rs",
            "use crate::Config; pub fn serve(c: Config) {}",
        ),
    ];
    assert_cycle(&files, &["src/lib.rs", "src/http.rs"]);
    // Config in a module of its own, re-exported by the root: one way.
    assert_eq!(
        tangles_of(&[
            (
                "src/lib.rs",
                "mod config; mod http; pub use config::Config; pub fn start(c: Config) { http::serve(c) }"
            ),
            ("src/config.rs", "pub struct Config;"),
            ("src/http.rs", "use crate::Config; pub fn serve(c: Config) {}"),
        ]),
        Vec::<String>::new()
    );
}

#[test]
fn paths_in_code_are_arrows_also_inside_macros() {
    assert_cycle(
        &[
            ("src/lib.rs", "mod a; mod b;"),
            ("src/a.rs", "pub fn f() -> u8 { crate::b::g() }"),
            (
                "src/b.rs",
                r#"pub fn g() -> u8 { println!("{}", crate::a::f()); 1 }"#,
            ),
        ],
        &["src/a.rs", "src/b.rs"],
    );
    // A `use` group inside a function body.
    assert_cycle(
        &[
            ("src/lib.rs", "mod a; mod b;"),
            ("src/a.rs", "pub fn f() { use crate::{b::{g}}; g() }"),
            ("src/b.rs", "pub fn g() { super::a::f() }"),
        ],
        &["src/a.rs", "src/b.rs"],
    );
}

#[test]
fn a_glob_counts_the_names_it_is_used_for() {
    // The folder's mod.rs picks a store its children implement: both ways.
    assert_cycle(
        &[
            ("src/lib.rs", "mod store;"),
            (
                "src/store/mod.rs",
                "mod sqlite; pub use sqlite::Sqlite; pub trait Store {} pub fn open() -> Sqlite { Sqlite }",
            ),
            ("src/store/sqlite.rs", "use super::*; pub struct Sqlite; impl Store for Sqlite {}"),
        ],
        &["src/store/mod.rs", "src/store/sqlite.rs"],
    );
    // Re-exported and implemented, but not used by mod.rs: one way.
    assert_eq!(
        tangles_of(&[
            ("src/lib.rs", "mod store;"),
            (
                "src/store/mod.rs",
                "mod sqlite; pub use sqlite::Sqlite; pub trait Store {}"
            ),
            (
                "src/store/sqlite.rs",
                "use super::*; pub struct Sqlite; impl Store for Sqlite {}"
            ),
        ]),
        Vec::<String>::new()
    );
}

#[test]
fn code_after_a_test_module_still_counts() {
    assert_cycle(
        &[
            ("src/lib.rs", "mod a; mod b;"),
            (
                "src/a.rs",
                "pub struct A;\n#[cfg(test)]\nmod tests;\nuse crate::b::B;\npub fn f(_: B) {}",
            ),
            ("src/b.rs", "pub struct B; pub fn g(_: crate::a::A) {}"),
        ],
        &["src/a.rs", "src/b.rs"],
    );
}

#[test]
fn a_longer_loop_is_found_and_reported_whole() {
    let found = tangles_of(&[
        ("src/lib.rs", "mod a; mod b; mod c;"),
        ("src/a.rs", "use crate::b::B; pub struct A;"),
        ("src/b.rs", "use crate::c::C; pub struct B;"),
        ("src/c.rs", "use crate::a::A; pub struct C;"),
    ]);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(
        found[0].starts_with("an import cycle: src/a.rs → src/b.rs → src/c.rs → src/a.rs"),
        "{}",
        found[0]
    );
    assert!(found[0].contains("src/c.rs → src/a.rs   (src/c.rs:1: crate::a::A)"));
}

#[test]
fn an_acyclic_crate_passes() {
    // Every shape the real crates use, one way only: a folder whose files use what its mod.rs
    // defines and re-exports them, a root that re-exports and starts things, test modules and
    // doc-only imports that point back up, and names that only look like the crate's.
    let found = tangles_of(&[
        (
            "src/lib.rs",
            "//! The map.\n\
             mod config;\nmod table;\nmod http;\n\
             pub use config::Config;\npub use table::{Table, Seat};\n\
             pub fn start(c: Config) { http::serve(c, Table::new()) }\n\
             #[cfg(test)]\nmod tests { use super::*; use crate::http::serve; }",
        ),
        ("src/config.rs", "#[derive(Default)] pub struct Config { pub table: u8 }"),
        (
            "src/table/mod.rs",
            "mod seat;\npub use seat::Seat;\npub struct Table;\n\
             impl Table { pub fn new() -> Table { Table } }\n\
             #[cfg(test)]\nfn helper() -> Seat { seat::Seat }",
        ),
        (
            "src/table/seat.rs",
            "use super::*;\n#[cfg(doc)]\nuse crate::http;\n\
             pub struct Seat;\nimpl Seat { pub fn at(_: &Table) {} }",
        ),
        (
            "src/http.rs",
            "use crate::{Config, table::{self, Seat}};\n\
             pub fn serve(c: Config, t: table::Table) { let _ = c.table; Seat::at(&t); std::mem::drop(t) }\n\
             #[cfg(test)]\nmod tests { use crate::start; }",
        ),
    ]);
    assert_eq!(found, Vec::<String>::new());
}

#[test]
fn the_tangle_finder_finds_every_tangle() {
    let mut g: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    g.insert("a", ["b"].into());
    g.insert("b", ["c"].into());
    g.insert("c", [].into());
    g.insert("x", ["y"].into());
    g.insert("y", [].into());
    assert!(tangles(&g).is_empty());
    g.insert("c", ["a"].into());
    g.insert("y", ["x"].into());
    assert_eq!(tangles(&g), [vec!["a", "b", "c"], vec!["x", "y"]]);
}
