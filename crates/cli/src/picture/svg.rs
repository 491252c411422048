//! Scenes as SVG, written by hand.

use super::{Anchor, Item, Scene};
use std::fmt::Write;

/// Escapes text for XML.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// The scene as an SVG document.
pub fn render(scene: &Scene) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif">"#,
        w = scene.width,
        h = scene.height
    );
    let _ = writeln!(s, "<title>{}</title>", escape(&scene.title));
    let _ = writeln!(
        s,
        r#"<rect class="paper" x="0" y="0" width="{}" height="{}" fill="{}"/>"#,
        scene.width,
        scene.height,
        super::palette::PAPER.hex()
    );
    for item in &scene.items {
        write_item(&mut s, item);
    }
    s.push_str("</svg>\n");
    s
}

/// One item as an SVG element, on a line of its own.
fn write_item(s: &mut String, item: &Item) {
    match item {
        Item::Rect {
            x,
            y,
            w,
            h,
            fill,
            stroke,
            class,
        } => {
            let stroke = stroke.map_or(String::new(), |c| {
                format!(r#" stroke="{}" stroke-width="1""#, c.hex())
            });
            let _ = writeln!(
                s,
                r#"<rect class="{class}" x="{x}" y="{y}" width="{w}" height="{h}" fill="{}"{stroke}/>"#,
                fill.hex()
            );
        }
        Item::Line {
            from,
            to,
            stroke,
            width,
            dashed,
            class,
        } => {
            let dash = if *dashed {
                r#" stroke-dasharray="6 4""#
            } else {
                ""
            };
            let _ = writeln!(
                s,
                r#"<line class="{class}" x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="{width}" stroke-linecap="round"{dash}/>"#,
                from.0,
                from.1,
                to.0,
                to.1,
                stroke.hex()
            );
        }
        Item::Disc {
            centre,
            radius,
            fill,
            stroke,
            class,
        } => {
            let fill = fill.map_or("none".to_string(), |c| c.hex());
            let _ = writeln!(
                s,
                r#"<circle class="{class}" cx="{}" cy="{}" r="{radius}" fill="{fill}" stroke="{}" stroke-width="2"/>"#,
                centre.0,
                centre.1,
                stroke.hex()
            );
        }
        Item::Text {
            at,
            size,
            anchor,
            text,
            fill,
        } => {
            let anchor = match anchor {
                Anchor::Start => "start",
                Anchor::Middle => "middle",
                Anchor::End => "end",
            };
            let _ = writeln!(
                s,
                r#"<text x="{}" y="{}" font-size="{size}" text-anchor="{anchor}" fill="{}">{}</text>"#,
                at.0,
                at.1,
                fill.hex(),
                escape(text)
            );
        }
    }
}
