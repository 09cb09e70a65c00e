//! 邀请 (the invite): a table's link as a QR code, so a friend at the same table points a phone
//! at the host's screen instead of typing a link (`GET /api/tables/{id}/qr.svg`).
//!
//! The `qrcode` crate encodes (its renderers are off); the SVG is drawn here: one path of dark
//! modules on a white square with the standard four-module quiet zone, `shape-rendering:
//! crispEdges` so it stays sharp at any size.

use qrcode::{Color, EcLevel, QrCode};

/// The link a table's invite points to, on the host the page was loaded from.
pub fn table_link(scheme: &str, host: &str, id: &str) -> String {
    format!("{scheme}://{host}/#/t/{id}")
}

/// The link a player's card points to: their pair's (or team's) page with their own token.
pub fn player_link(scheme: &str, host: &str, competition: &str, token: &str) -> String {
    format!("{scheme}://{host}/pair.html?e={competition}#{token}")
}

/// A practice player's personal link (docs/practice.md): the practice page with their code
/// after `#`, which browsers never send to a server.
pub fn practice_link(scheme: &str, host: &str, code: &str) -> String {
    format!("{scheme}://{host}/practice.html#p={code}")
}

/// `text` as an SVG QR code (error correction M); `None` if it does not fit a QR code.
pub fn qr_svg(text: &str) -> Option<String> {
    let code = QrCode::with_error_correction_level(text.as_bytes(), EcLevel::M).ok()?;
    let width = code.width();
    let quiet = 4;
    let size = width + 2 * quiet;
    let mut path = String::new();
    for (i, c) in code.to_colors().iter().enumerate() {
        if *c == Color::Dark {
            let (x, y) = (i % width + quiet, i / width + quiet);
            path.push_str(&format!("M{x},{y}h1v1h-1z"));
        }
    }
    Some(format!(
        concat!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {s} {s}" "#,
            r#"shape-rendering="crispEdges" role="img" aria-label="QR">"#,
            r##"<rect width="{s}" height="{s}" fill="#fff"/><path fill="#000" d="{p}"/></svg>"##
        ),
        s = size,
        p = path
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_becomes_a_square_svg_with_a_quiet_zone() {
        let link = table_link("http", "127.0.0.1:8080", "123456");
        assert_eq!(link, "http://127.0.0.1:8080/#/t/123456");
        let svg = qr_svg(&link).unwrap();
        assert!(svg.starts_with("<svg"), "{svg}");
        // Version 3 (29 modules) holds this link at level M; plus 4 on each side.
        assert!(svg.contains(r#"viewBox="0 0 37 37""#), "{svg}");
        // The finder pattern's corner module is dark, inside the quiet zone.
        assert!(svg.contains("M4,4h1v1h-1z"));
        assert!(!svg.contains("M0,0h1"));
    }
}
