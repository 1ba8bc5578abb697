import Foundation

/// One file of the web client, as formd serves it.
package struct WebAsset: Sendable {
    /// The URL path it is served at.
    package let path: String
    package let contentType: String
    package let bytes: [UInt8]
    /// Part of the page at `/` (off with `ui.enabled` false), not of the embeddable client.
    package let isPage: Bool

    /// The engine module (`/client/formd-engine.wasm`).
    package static let enginePath = "/client/formd-engine.wasm"

    /// The offline service worker, at the root so that its scope covers the page at `/`
    /// (docs/CLIENT.md, "Offline"). Public like the client: an embedding app's own worker may
    /// `importScripts` it.
    package static let serviceWorkerPath = "/formd-sw.js"

    /// Every file, by path: the embeddable client (`/client/formd.js`, `/client/formd.css`, the
    /// engine `/client/formd-engine.js` and `/client/formd-engine.wasm`, the offline service worker
    /// `/formd-sw.js`) and the page (`/`, `/client/page.js`, `/client/page.css`).
    package static let all: [String: WebAsset] = {
        let js = "text/javascript; charset=utf-8", css = "text/css; charset=utf-8"
        let engine = Data(base64Encoded: EngineModule.base64).map { [UInt8]($0) } ?? []
        let files = [
            WebAsset(path: "/client/formd.js", contentType: js, bytes: PackageResources.formd_js, isPage: false),
            WebAsset(path: "/client/formd.css", contentType: css, bytes: PackageResources.formd_css, isPage: false),
            WebAsset(path: "/client/formd-engine.js", contentType: js, bytes: PackageResources.formd_engine_js, isPage: false),
            WebAsset(path: enginePath, contentType: "application/wasm", bytes: engine, isPage: false),
            WebAsset(path: serviceWorkerPath, contentType: js, bytes: PackageResources.formd_sw_js, isPage: false),
            WebAsset(path: "/", contentType: "text/html; charset=utf-8", bytes: PackageResources.index_html, isPage: true),
            WebAsset(path: "/client/page.js", contentType: js, bytes: PackageResources.page_js, isPage: true),
            WebAsset(path: "/client/page.css", contentType: css, bytes: PackageResources.page_css, isPage: true),
        ]
        return Dictionary(uniqueKeysWithValues: files.map { ($0.path, $0) })
    }()
}
