import FormdHTTP

extension HTTPError {
    /// A submission (or `values`) that is not a JSON object.
    static let notAnObject = HTTPError(status: 400, slug: "not-an-object", detail: "the body must be a JSON object")
}
