//! File access confined to the served directory's level files: a path from a request is
//! relative, made of plain names only, names a `.ron` file, and once canonicalised (symbolic
//! links followed) it must still be a `.ron` file inside the directory.

use std::path::{Component, Path, PathBuf};

use super::ApiError;

/// The longest name of one file or folder most file systems take, in bytes.
const NAME_MAX: usize = 255;

/// A request's path checked by words alone: relative, plain names (no `..`, no root, no drive)
/// of at most [`NAME_MAX`] bytes each, not empty, at most 4096 bytes in all.
fn plain(relative: &str) -> Result<&Path, ApiError> {
    if relative.is_empty() || relative.len() > 4096 || relative.contains('\0') {
        return Err(ApiError::bad_request(format!("`{relative}` is not a file name")));
    }
    let path = Path::new(relative);
    let fine = !path.is_absolute()
        && !relative.starts_with(['/', '\\'])
        && path.components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
    if !fine {
        return Err(ApiError::forbidden(relative));
    }
    // Longer names are refused by the file system (ENAMETOOLONG), which once answered 500.
    if let Some(long) = path.components().map(|c| c.as_os_str().len()).find(|&n| n > NAME_MAX) {
        return Err(ApiError::bad_request(format!(
            "`{relative}` is not a file name: a name in a path may have at most {NAME_MAX} bytes (this one has {long})"
        )));
    }
    Ok(path)
}

/// Whether a path names a level file (`.ron`).
fn is_level(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "ron")
}

/// An existing `.ron` file inside `dir` (which is canonical): 403 when the path leaves it (by
/// `..`, an absolute path or a symbolic link pointing out) or is not a `.ron` file (nor links to
/// one), 404 when there is no such file.
pub(crate) fn existing(dir: &Path, relative: &str) -> Result<PathBuf, ApiError> {
    let path = plain(relative)?;
    if !is_level(path) {
        return Err(ApiError::not_a_level(relative));
    }
    let real = dir.join(path).canonicalize().map_err(|_| ApiError::not_found(relative))?;
    if !real.starts_with(dir) {
        return Err(ApiError::forbidden(relative));
    }
    if !is_level(&real) {
        return Err(ApiError::not_a_level(relative));
    }
    if !real.is_file() {
        return Err(ApiError::not_found(relative));
    }
    Ok(real)
}

/// Where a new (or replaced) `.ron` file inside `dir` is written: its directory must exist
/// inside `dir`, and an existing file of that name (or a symbolic link) must resolve inside
/// `dir` too.
pub(crate) fn writable(dir: &Path, relative: &str) -> Result<PathBuf, ApiError> {
    let path = plain(relative)?;
    let Some(name) = path.file_name() else {
        return Err(ApiError::bad_request(format!("`{relative}` is not a file name")));
    };
    if !is_level(path) {
        return Err(ApiError::bad_request(format!("`{relative}`: puzzle files are saved as .ron")));
    }
    let parent = dir.join(path.parent().unwrap_or(Path::new("")));
    let parent = parent.canonicalize().map_err(|_| ApiError::not_found(relative))?;
    if !parent.starts_with(dir) {
        return Err(ApiError::forbidden(relative));
    }
    let target = parent.join(name);
    if std::fs::symlink_metadata(&target).is_ok() {
        let real = target.canonicalize().map_err(|_| ApiError::forbidden(relative))?;
        if !real.starts_with(dir) {
            return Err(ApiError::forbidden(relative));
        }
        if !is_level(&real) {
            return Err(ApiError::not_a_level(relative));
        }
    }
    Ok(target)
}

/// The `.ron` files directly inside `dir` (not following links out of it), sorted by name.
pub(crate) fn level_files(dir: &Path) -> std::io::Result<Vec<String>> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        if !name.ends_with(".ron") || name.starts_with('.') {
            continue;
        }
        if existing(dir, name).is_ok() {
            names.push(name.to_string());
        }
    }
    names.sort();
    Ok(names)
}
