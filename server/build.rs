//! Embeds the web client in the binary, so a `paiju` copied to a server serves its page: every
//! file the pages load (web-client/index.html, director.html, standings.html, pair.html, style.css and
//! src/) becomes a `(path, bytes)` entry of `WEB_FILES` in `$OUT_DIR/web_files.rs`. Tests,
//! node_modules and the type-check fixtures are not served. `paiju serve --web DIR` serves from
//! disk instead.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn collect(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        if p.is_dir() {
            collect(root, &p, out);
        } else if !name.ends_with(".d.ts") {
            // Type declarations are for tsc, not the browser.
            out.push(p.strip_prefix(root).unwrap().to_path_buf());
        }
    }
}

fn main() {
    let web = Path::new(env!("CARGO_MANIFEST_DIR")).join("../web-client");
    let mut files = Vec::new();
    // The pages: the lobby and table (index.html), and the events' director console,
    // standings and a pair's own page (director.html, standings.html, pair.html).
    for top in [
        "index.html",
        "director.html",
        "standings.html",
        "pair.html",
        "style.css",
    ] {
        if web.join(top).is_file() {
            files.push(PathBuf::from(top));
        }
    }
    collect(&web, &web.join("src"), &mut files);
    files.sort();
    let mut code = String::from("/// The web client's files: (path under web-client/, contents).\npub static WEB_FILES: &[(&str, &[u8])] = &[\n");
    for f in &files {
        let rel = f.to_string_lossy().replace('\\', "/");
        let abs = web.join(f).canonicalize().unwrap();
        writeln!(
            code,
            "    ({rel:?}, include_bytes!({:?})),",
            abs.display().to_string()
        )
        .unwrap();
    }
    code.push_str("];\n");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("web_files.rs");
    std::fs::write(out, code).unwrap();
    println!("cargo:rerun-if-changed=../web-client/index.html");
    println!("cargo:rerun-if-changed=../web-client/style.css");
    println!("cargo:rerun-if-changed=../web-client/director.html");
    println!("cargo:rerun-if-changed=../web-client/standings.html");
    println!("cargo:rerun-if-changed=../web-client/pair.html");
    println!("cargo:rerun-if-changed=../web-client/src");
    for f in &files {
        println!("cargo:rerun-if-changed=../web-client/{}", f.display());
    }
}
