//! The internal link check of a built book: every relative `href` in the
//! generated HTML must point at a file of the book, and every `#fragment` at
//! an `id` (or `name`) of the page it names.
//!
//! mdBook reports a missing `{{#include}}` but not a link to a chapter that
//! was renamed, nor a `#heading` anchor whose heading text changed; both are
//! silently broken in the HTML. Checking the output rather than the Markdown
//! sees links exactly as a reader's browser resolves them, including those
//! mdBook rewrites (`.md` to `.html`, cross-chapter anchors in `print.html`).
//!
//! External links (`https:`, `mailto:`, …) are not checked: that needs the
//! network, and a dead external page is not a defect of the book's sources.
//!
//! The scan reads attributes inside tags only: text between tags is skipped
//! (the Markdown renderer escapes `<` there, but not `"`, so a code block
//! showing `href="x.html"` must not count as a link), and so are comments
//! and the contents of `<script>` and `<style>` elements.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Component, Path, PathBuf};

/// A link in a page that does not resolve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrokenLink {
    /// The page holding the link, relative to the book's output directory.
    pub page: PathBuf,
    /// The `href` as written in the page.
    pub href: String,
    /// Why it is broken.
    pub reason: String,
}

impl std::fmt::Display for BrokenLink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: href=\"{}\": {}",
            self.page.display(),
            self.href,
            self.reason
        )
    }
}

/// What a check of a whole book found.
#[derive(Debug, Default)]
pub struct Report {
    /// How many HTML pages were read.
    pub pages: usize,
    /// How many internal links were resolved.
    pub links: usize,
    /// The links that did not resolve.
    pub broken: Vec<BrokenLink>,
}

/// Checks every internal link of every `.html` file under `root`.
///
/// `Err` is for a directory that cannot be read, not for broken links, which
/// are listed in the report.
pub fn check_site(root: &Path) -> Result<Report, String> {
    let mut pages = Vec::new();
    collect_html(root, root, &mut pages)?;
    pages.sort();

    let mut site = Site {
        root,
        anchors: HashMap::new(),
    };
    let mut report = Report {
        pages: pages.len(),
        ..Report::default()
    };
    for page in &pages {
        let html = read_page(root, page)?;
        // Pages with a `<base>` element (mdBook's 404 page, served from any
        // path) resolve relative links from the book's root, like a browser.
        let base_dir = if html.contains("<base ") {
            PathBuf::new()
        } else {
            page.parent().map(Path::to_path_buf).unwrap_or_default()
        };
        for href in attribute_values(&html, "href") {
            if is_external(&href) {
                continue;
            }
            report.links += 1;
            if let Err(reason) = site.resolve(page, &html, &base_dir, &href) {
                report.broken.push(BrokenLink {
                    page: page.clone(),
                    href,
                    reason,
                });
            }
        }
    }
    Ok(report)
}

/// The built site, with the anchors of each page read once.
struct Site<'a> {
    root: &'a Path,
    anchors: HashMap<PathBuf, HashSet<String>>,
}

impl Site<'_> {
    /// `Ok` when `href`, found in `page` (whose text is `html`), resolves.
    fn resolve(
        &mut self,
        page: &Path,
        html: &str,
        base_dir: &Path,
        href: &str,
    ) -> Result<(), String> {
        let (path, fragment) = match href.split_once('#') {
            Some((path, fragment)) => (path, Some(percent_decode(fragment))),
            None => (href, None),
        };
        // A query string does not select a file.
        let path = path.split_once('?').map_or(path, |(path, _)| path);
        let path = percent_decode(path);

        if path.is_empty() {
            return match fragment {
                Some(fragment) if !fragment.is_empty() => {
                    if anchors_of(html).contains(&fragment) {
                        Ok(())
                    } else {
                        Err(format!("no element with id `{fragment}` on this page"))
                    }
                }
                _ => Ok(()),
            };
        }

        let target = if let Some(from_root) = path.strip_prefix('/') {
            normalize(Path::new(from_root))
        } else {
            normalize(&base_dir.join(&path))
        }
        .ok_or_else(|| "points outside the book".to_string())?;
        let mut file = self.root.join(&target);
        let mut target = target;
        if file.is_dir() {
            file = file.join("index.html");
            target = target.join("index.html");
        }
        if !file.is_file() {
            return Err(format!("`{}` does not exist", target.display()));
        }

        let Some(fragment) = fragment.filter(|fragment| !fragment.is_empty()) else {
            return Ok(());
        };
        if file.extension().is_none_or(|ext| ext != "html") {
            return Ok(());
        }
        if target == page {
            return if anchors_of(html).contains(&fragment) {
                Ok(())
            } else {
                Err(format!("no element with id `{fragment}` on this page"))
            };
        }
        if !self.anchors.contains_key(&target) {
            let text = read_page(self.root, &target)?;
            self.anchors.insert(target.clone(), anchors_of(&text));
        }
        if self.anchors[&target].contains(&fragment) {
            Ok(())
        } else {
            Err(format!(
                "`{}` has no element with id `{fragment}`",
                target.display()
            ))
        }
    }
}

fn read_page(root: &Path, page: &Path) -> Result<String, String> {
    let path = root.join(page);
    fs::read(&path)
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .map_err(|err| format!("cannot read {}: {err}", path.display()))
}

/// Every `.html` file under `dir`, as paths relative to `root`.
fn collect_html(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries =
        fs::read_dir(dir).map_err(|err| format!("cannot read {}: {err}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|err| format!("cannot read {}: {err}", dir.display()))?;
        let path = entry.path();
        if path.is_dir() {
            collect_html(root, &path, out)?;
        } else if path.extension().is_some_and(|ext| ext == "html") {
            let relative = path.strip_prefix(root).unwrap_or(&path).to_path_buf();
            out.push(relative);
        }
    }
    Ok(())
}

/// The values of every `name` attribute of every tag in `html`, with the
/// HTML entities of attribute text decoded. Attribute names compare without
/// regard to case, as in HTML.
fn attribute_values(html: &str, name: &str) -> Vec<String> {
    let mut values = Vec::new();
    for tag in tags(html) {
        for (attribute, value) in attributes(tag) {
            if attribute.eq_ignore_ascii_case(name) {
                values.push(decode_entities(value));
            }
        }
    }
    values
}

/// The inside of every start or end tag (`a href="x"` for `<a href="x">`),
/// skipping text, comments, declarations and the contents of `<script>` and
/// `<style>` elements. A `>` inside a quoted attribute value does not end
/// the tag.
fn tags(html: &str) -> Vec<&str> {
    let mut tags = Vec::new();
    let mut rest = html;
    while let Some(open) = rest.find('<') {
        rest = &rest[open + 1..];
        if let Some(after) = rest.strip_prefix("!--") {
            rest = after.find("-->").map_or("", |end| &after[end + 3..]);
            continue;
        }
        let mut quote = None;
        let end = rest.char_indices().find_map(|(i, c)| match (quote, c) {
            (None, '"' | '\'') => {
                quote = Some(c);
                None
            }
            (Some(q), c) if c == q => {
                quote = None;
                None
            }
            (None, '>') => Some(i),
            _ => None,
        });
        let Some(end) = end else { break };
        let tag = &rest[..end];
        rest = &rest[end + 1..];
        if tag.starts_with('!') || tag.starts_with('?') {
            continue;
        }
        tags.push(tag);
        let element = tag
            .split(|c: char| c.is_whitespace() || c == '/')
            .next()
            .unwrap_or("");
        for raw in ["script", "style"] {
            if element.eq_ignore_ascii_case(raw) {
                let close = format!("</{raw}");
                let lower = rest.to_ascii_lowercase();
                rest = lower.find(&close).map_or("", |at| &rest[at..]);
            }
        }
    }
    tags
}

/// The `(name, value)` pairs of a tag's inside (`a href="x" hidden` gives
/// `("href", "x")` and `("hidden", "")`); the element name is skipped.
fn attributes(tag: &str) -> Vec<(&str, &str)> {
    let mut pairs = Vec::new();
    let body = tag.trim_start_matches('/');
    let mut rest = body
        .find(|c: char| c.is_whitespace())
        .map_or("", |at| &body[at..]);
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == '/');
        if rest.is_empty() {
            break;
        }
        let name_end = rest
            .find(|c: char| c.is_whitespace() || c == '=' || c == '/')
            .unwrap_or(rest.len());
        let name = &rest[..name_end];
        rest = rest[name_end..].trim_start();
        let Some(after_eq) = rest.strip_prefix('=') else {
            pairs.push((name, ""));
            continue;
        };
        let after_eq = after_eq.trim_start();
        let (value, remaining) = match after_eq.chars().next() {
            Some(q @ ('"' | '\'')) => {
                let inner = &after_eq[1..];
                match inner.find(q) {
                    Some(close) => (&inner[..close], &inner[close + 1..]),
                    None => (inner, ""),
                }
            }
            _ => {
                let end = after_eq
                    .find(|c: char| c.is_whitespace())
                    .unwrap_or(after_eq.len());
                (&after_eq[..end], &after_eq[end..])
            }
        };
        pairs.push((name, value));
        rest = remaining;
    }
    pairs
}

/// The ids a fragment can point at: `id` attributes, and `name` attributes of
/// old-style `<a name>` anchors.
fn anchors_of(html: &str) -> HashSet<String> {
    attribute_values(html, "id")
        .into_iter()
        .chain(attribute_values(html, "name"))
        .collect()
}

/// True for links the check leaves alone: a scheme (`https:`, `mailto:`,
/// `javascript:`) or a protocol-relative `//host/…`.
fn is_external(href: &str) -> bool {
    if href.starts_with("//") {
        return true;
    }
    let end = href.find(['/', '?', '#']).unwrap_or(href.len());
    match href[..end].split_once(':') {
        Some((scheme, _)) => {
            let mut chars = scheme.chars();
            chars.next().is_some_and(|c| c.is_ascii_alphabetic())
                && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
        }
        None => false,
    }
}

/// `a/./b/../c` to `a/c`; `None` when `..` climbs above the start.
fn normalize(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::Normal(part) => out.push(part),
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out)
}

/// Decodes `%XX` escapes (as UTF-8); a malformed escape is kept as written.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(byte) = text
                .get(i + 1..i + 3)
                .and_then(|hex| u8::from_str_radix(hex, 16).ok())
        {
            out.push(byte);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Decodes the entities that appear in attribute values.
fn decode_entities(text: &str) -> String {
    text.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A throwaway site directory, removed on drop.
    struct TempSite(PathBuf);

    impl TempSite {
        fn new(name: &str, files: &[(&str, &str)]) -> Self {
            let dir =
                std::env::temp_dir().join(format!("xtask-links-{name}-{}", std::process::id()));
            let _ = fs::remove_dir_all(&dir);
            for (path, text) in files {
                let path = dir.join(path);
                fs::create_dir_all(path.parent().unwrap()).unwrap();
                fs::write(path, text).unwrap();
            }
            Self(dir)
        }
    }

    impl Drop for TempSite {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    fn broken_hrefs(site: &TempSite) -> Vec<String> {
        check_site(&site.0)
            .unwrap()
            .broken
            .into_iter()
            .map(|link| link.href)
            .collect()
    }

    #[test]
    fn good_links_pass() {
        let site = TempSite::new(
            "good",
            &[
                (
                    "index.html",
                    r##"<a href="guide/page.html#setup">x</a> <a href="#top">t</a>
                       <h1 id="top">T</h1> <a href="https://example.com/nope.html">e</a>
                       <link href="css/site.css"> <a href="guide/">dir</a>"##,
                ),
                (
                    "guide/page.html",
                    r##"<h2 id="setup">S</h2><a href="../index.html">up</a>
                       <a href="page.html#setup">self</a><a href="mailto:a@b.c">m</a>"##,
                ),
                ("guide/index.html", "<p>dir index</p>"),
                ("css/site.css", "body {}"),
            ],
        );
        let report = check_site(&site.0).unwrap();
        assert_eq!(report.pages, 3);
        assert_eq!(report.links, 6);
        assert!(report.broken.is_empty(), "{:?}", report.broken);
    }

    #[test]
    fn missing_pages_and_anchors_are_reported() {
        let site = TempSite::new(
            "bad",
            &[
                (
                    "index.html",
                    r##"<a href="gone.html">1</a> <a href="sub/page.html#nowhere">2</a>
                        <a href="#missing">3</a> <a href="../outside.html">4</a>
                        <a href="sub/page.html#here">ok</a>"##,
                ),
                ("sub/page.html", r##"<h2 id="here">H</h2>"##),
            ],
        );
        let mut broken = broken_hrefs(&site);
        broken.sort();
        assert_eq!(
            broken,
            [
                "#missing",
                "../outside.html",
                "gone.html",
                "sub/page.html#nowhere"
            ]
        );
        let report = check_site(&site.0).unwrap();
        let gone = report
            .broken
            .iter()
            .find(|link| link.href == "gone.html")
            .unwrap();
        assert!(gone.reason.contains("does not exist"), "{}", gone.reason);
        assert_eq!(gone.page, Path::new("index.html"));
    }

    #[test]
    fn a_base_element_resolves_from_the_root() {
        let site = TempSite::new(
            "base",
            &[
                (
                    "404.html",
                    r##"<base href="/"><a href="/">home</a><a href="index.html">i</a>"##,
                ),
                ("index.html", "<p>home</p>"),
            ],
        );
        assert!(broken_hrefs(&site).is_empty());
    }

    #[test]
    fn attributes_are_matched_whole_and_decoded() {
        let html = r##"<a data-href="x.html" href="a.html?x=1&amp;y=2"><b id='q' hidden>"##;
        assert_eq!(attribute_values(html, "href"), ["a.html?x=1&y=2"]);
        assert_eq!(attribute_values(html, "id"), ["q"]);
        assert_eq!(
            attributes(r#"input type=checkbox disabled checked="" /"#),
            [("type", "checkbox"), ("disabled", ""), ("checked", "")]
        );
    }

    #[test]
    fn only_tags_count() {
        // As mdBook renders a code block quoting an HTML link: `<` escaped,
        // `"` not.
        let html = r##"<pre><code>broken link: href="gone.html" &lt;a href="x.html"&gt;</code></pre>
            <!-- <a href="commented.html"> -->
            <script>if (a < b) { x = '<a href="script.html">'; }</script>
            <a title="1 > 0" href="real.html">r</a>"##;
        assert_eq!(attribute_values(html, "href"), ["real.html"]);
    }

    #[test]
    fn schemes_are_external() {
        assert!(is_external("https://burn.dev"));
        assert!(is_external("mailto:someone@example.com"));
        assert!(is_external("//cdn.example.com/x.js"));
        assert!(!is_external("chapter.html#a:b"));
        assert!(!is_external("../index.html"));
        assert!(!is_external("#anchor"));
    }

    #[test]
    fn percent_escapes_are_decoded() {
        assert_eq!(percent_decode("a%20b%C3%A9"), "a bé");
        assert_eq!(percent_decode("100%"), "100%");
    }
}
