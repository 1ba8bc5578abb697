import ArgumentParser

@main
struct Formd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "formd",
        abstract: "Serves, checks and evaluates Hyper-style form definitions."
    )
}
