//! The playable page of an export: one self-contained HTML file (the page template, the
//! document as JSON and the player with the playground's board drawing bundled in, all
//! inline). Both front-ends write it: `modsolve export PATH --html` (`cli::export`) and the
//! playground's `POST /api/export` (`serve::api`), so it lives beside them, not in either.

use modsolve::export::Document;

/// The page template, the player and the board drawing the playground uses.
const TEMPLATE: &str = include_str!("../web/player.html");
const PLAYER_JS: &str = include_str!("../web/player.js");
const BOARD_JS: &str = include_str!("../web/board.js");

/// The page of a document: one HTML file with everything inline.
pub(crate) fn html(document: &Document) -> String {
    let title = match (&document.pack, document.levels.first()) {
        (Some(pack), _) => pack.clone(),
        (None, Some(level)) => level.board.name.clone().unwrap_or_else(|| level.file.clone()),
        (None, None) => "modsolve".into(),
    };
    // `<` written as its JSON escape: the data cannot close its script element.
    let data = serde_json::to_string(document).expect("export documents serialise").replace('<', "\\u003c");
    TEMPLATE
        .replace("{{TITLE}}", &modsolve::report::svg::escape(&title))
        .replace("{{SCRIPT}}", &bundle())
        .replace("{{DATA}}", &data)
}

/// board.js and player.js as one module script: board.js inside a function (its `export`
/// keywords dropped) that returns what player.js imports from it, then player.js without its
/// import.
pub(crate) fn bundle() -> String {
    let import = PLAYER_JS.lines().find(|line| line.starts_with("import ")).unwrap_or("");
    let names =
        import.split_once('{').and_then(|(_, rest)| rest.split_once('}')).map_or("", |(names, _)| names);
    let names = names.split(',').map(str::trim).filter(|n| !n.is_empty()).collect::<Vec<_>>().join(", ");
    let mut out = String::with_capacity(BOARD_JS.len() + PLAYER_JS.len() + 256);
    out.push_str("// board.js, the playground's board drawing\nconst boardModule = (() => {\n");
    for line in BOARD_JS.lines() {
        out.push_str(line.strip_prefix("export ").unwrap_or(line));
        out.push('\n');
    }
    out.push_str(&format!("return {{ {names} }};\n}})();\nconst {{ {names} }} = boardModule;\n\n"));
    for line in PLAYER_JS.lines().filter(|line| !line.starts_with("import ")) {
        out.push_str(line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    /// The bundle is one script: no module syntax left, nothing that closes the element, and
    /// every name player.js imports returned from board.js.
    #[test]
    fn the_bundle_is_plain_script() {
        let script = super::bundle();
        assert!(!script.lines().any(|l| l.starts_with("import ") || l.starts_with("export ")));
        assert!(!script.to_ascii_lowercase().contains("</script"));
        assert!(
            script.contains(
                "return { draw, pressAt, cellPoint, buttonPoint, setPalette, cellArrays, legend };"
            ),
            "{}",
            &script[..200]
        );
    }

    #[test]
    fn titles_are_escaped() {
        assert_eq!(modsolve::report::svg::escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }
}
