//! Arrows run one way (design.md): inside each crate no two modules import each other, directly
//! or round a longer loop, and the web client's ES modules neither. Reads the sources: a `use
//! crate::a::…` or `super::a` in module `b` is an arrow b → a; an `import … from "./a.js"` in
//! `b.js` is an arrow b → a.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

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

/// A Rust file's module path inside its crate: `src/table/mod.rs` → `table`,
/// `src/gouji/game.rs` → `gouji::game`, `src/lib.rs` → `` (the crate root).
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The modules a Rust file imports, as paths from the crate root (only the module part: the
/// longest prefix that is a known module).
fn rust_arrows(me: &[String], text: &str, known: &BTreeSet<Vec<String>>) -> BTreeSet<Vec<String>> {
    let mut out = BTreeSet::new();
    // Strip `#[cfg(test)] mod tests { … }` blocks' influence crudely: a test module may use
    // anything of its parent.
    let code = text.split("#[cfg(test)]").next().unwrap_or(text);
    for (prefix, base) in [("crate::", Vec::new()), ("super::", parent(me))] {
        let mut rest = code;
        while let Some(i) = rest.find(prefix) {
            let tail = &rest[i + prefix.len()..];
            let path: Vec<String> = tail
                .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .next()
                .unwrap_or("")
                .split("::")
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect();
            let mut full = base.clone();
            full.extend(path);
            // The longest known module prefix.
            while !full.is_empty() && !known.contains(&full) {
                full.pop();
            }
            if !full.is_empty() && full != me && !me.starts_with(&full) {
                out.insert(full);
            }
            rest = &rest[i + prefix.len()..];
        }
    }
    out
}

fn parent(m: &[String]) -> Vec<String> {
    m[..m.len().saturating_sub(1)].to_vec()
}

/// Finds a cycle in a graph, if any: the modules on it in order.
fn cycle<N: Ord + Clone + std::fmt::Debug>(graph: &BTreeMap<N, BTreeSet<N>>) -> Option<Vec<N>> {
    fn visit<N: Ord + Clone>(
        n: &N,
        g: &BTreeMap<N, BTreeSet<N>>,
        state: &mut BTreeMap<N, u8>,
        stack: &mut Vec<N>,
    ) -> Option<Vec<N>> {
        state.insert(n.clone(), 1);
        stack.push(n.clone());
        for m in g.get(n).into_iter().flatten() {
            match state.get(m).copied().unwrap_or(0) {
                1 => {
                    let at = stack.iter().position(|x| x == m).unwrap();
                    let mut c = stack[at..].to_vec();
                    c.push(m.clone());
                    return Some(c);
                }
                0 => {
                    if let Some(c) = visit(m, g, state, stack) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(n.clone(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for n in graph.keys() {
        if state.get(n).copied().unwrap_or(0) == 0 {
            let mut stack = Vec::new();
            if let Some(c) = visit(n, graph, &mut state, &mut stack) {
                return Some(c);
            }
        }
    }
    None
}

#[test]
fn no_rust_module_imports_a_module_that_imports_it() {
    for krate in ["rules", "protocol", "server", "bots", "tests", "tournament"] {
        let src = root().join(krate).join("src");
        let mut fs = Vec::new();
        files(&src, "rs", &mut fs);
        let known: BTreeSet<Vec<String>> = fs.iter().map(|f| module_of(&src, f)).collect();
        let mut graph = BTreeMap::new();
        for f in &fs {
            let me = module_of(&src, f);
            if me.is_empty() {
                continue; // the crate root declares every module
            }
            let text = std::fs::read_to_string(f).unwrap();
            graph.insert(me.clone(), rust_arrows(&me, &text, &known));
        }
        // A module and its own submodules are one unit for this check: `a` → `a::b` is how a
        // folder module uses its parts.
        let graph: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = graph
            .into_iter()
            .map(|(m, to)| {
                let to = to.into_iter().filter(|t| !t.starts_with(&m)).collect();
                (m, to)
            })
            .collect();
        if let Some(c) = cycle(&graph) {
            let names: Vec<String> = c.iter().map(|m| m.join("::")).collect();
            panic!("{krate}: an import cycle: {}", names.join(" → "));
        }
    }
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
    if let Some(c) = cycle(&graph) {
        panic!("web-client: an import cycle: {}", c.join(" → "));
    }
}

#[test]
fn the_cycle_finder_finds_cycles() {
    let mut g: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    g.insert("a", ["b"].into());
    g.insert("b", ["c"].into());
    g.insert("c", [].into());
    assert_eq!(cycle(&g), None);
    g.insert("c", ["a"].into());
    assert_eq!(cycle(&g), Some(vec!["a", "b", "c", "a"]));
}
