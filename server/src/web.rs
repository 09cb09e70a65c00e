//! The web client, embedded in the binary at build time (server/build.rs): a `paiju` copied to
//! another machine serves its page with no files beside it. `paiju serve --web DIR` serves a
//! directory instead, for working on the page without rebuilding.

include!(concat!(env!("OUT_DIR"), "/web_files.rs"));

/// The embedded file a URL path names (`/` is `index.html`), with its path.
pub fn embedded(url_path: &str) -> Option<(&'static str, &'static [u8])> {
    let mut rel = url_path.trim_start_matches('/');
    if rel.is_empty() {
        rel = "index.html";
    }
    WEB_FILES
        .iter()
        .find(|(path, _)| *path == rel)
        .map(|(path, bytes)| (*path, *bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_and_its_modules_are_embedded_and_nothing_else() {
        assert!(embedded("/").is_some_and(|(p, b)| p == "index.html" && !b.is_empty()));
        assert!(embedded("/src/main.js").is_some());
        assert!(embedded("/style.css").is_some());
        assert!(embedded("/package.json").is_none());
        assert!(embedded("/tests/harness.js").is_none());
        assert!(embedded("/typecheck/protocol-samples.js").is_none());
        assert!(WEB_FILES.iter().all(|(p, _)| !p.contains("node_modules")));
    }
}
