//! A test's folder under the temp directory, removed when the test is done, pass or fail.

use std::path::{Path, PathBuf};

/// `paiju-<name>-<pid>`, fresh; removed with what is in it when dropped. It must outlive the
/// server or store using it: declare it before them, so it is dropped after them.
#[must_use = "the folder is removed when this is dropped"]
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("paiju-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
