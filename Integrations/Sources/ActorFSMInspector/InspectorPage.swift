/// The inspector's page: the target's resources `Page/index.html`, `Page/inspector.css` and
/// `Page/inspector.js`, embedded in the binary, with the styles and the script put inline where
/// the page marks them. It loads nothing from elsewhere, so it works without a network.
enum InspectorPage {
    static let html = String(decoding: PackageResources.index_html, as: UTF8.self)
        .replacing("/* inspector.css */", with: String(decoding: PackageResources.inspector_css, as: UTF8.self))
        .replacing("/* inspector.js */", with: String(decoding: PackageResources.inspector_js, as: UTF8.self))
}
