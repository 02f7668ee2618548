import ArgumentParser
import Foundation
import Photos

/// `photos token create|list|revoke|allow|disallow`: the API tokens of `photos serve`.
struct TokenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "token", abstract: "Create, list and revoke the access tokens of 'photos serve'.",
        discussion: """
            A token is read-write (sees and changes everything), add-only (may upload, sees \
            nothing) or limited (sees only the assets on its allow-list: 'photos token allow'). \
            The secret is printed once; the library keeps only its SHA-256.
            """,
        subcommands: [
            TokenCreateCommand.self, TokenListCommand.self, TokenRevokeCommand.self, TokenAllowCommand.self,
            TokenDisallowCommand.self,
        ])
}

struct TokenCreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "create", abstract: "Create a token and print its secret.")

    @OptionGroup var options: LibraryOptions
    @Option(help: "read-write, add-only or limited.") var level: String
    @Option(help: "What the token is for.") var name = "token"
    @Option(parsing: .upToNextOption, help: "For limited tokens: the assets it may see.") var allow: [String] = []
    @Option(help: "In a library with people: whose token it is (name or pe_...; the owner's if left out).") var user: String?
    @Flag(help: "Print only the secret.") var quiet = false

    func validate() throws {
        guard let level = PHAccessToken.Level(rawValue: level) else {
            throw ValidationError("--level must be read-write, add-only or limited, not '\(self.level)'")
        }
        if !allow.isEmpty && level != .limited { throw ValidationError("--allow applies to limited tokens only") }
    }

    func run() throws {
        let level = PHAccessToken.Level(rawValue: self.level) ?? .readWrite
        let library = try options.open()
        let identifiers = try library.withCurrent { try ObjectLookup.assets(allow).map(\.localIdentifier) }
        let (token, secret) = try library.createAccessToken(named: name, level: level, person: user)
        if !identifiers.isEmpty {
            try library.changeLimitedLibrary(ofAccessToken: token.identifier, .add(identifiers))
        }
        if quiet {
            print(secret)
        } else {
            print("\(token.identifier)  \(token.level.rawValue)  \(token.name)")
            print("secret: \(secret)")
            print("(shown once; the library keeps only its SHA-256)")
        }
    }
}

struct TokenListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the tokens (never their secrets).")

    @OptionGroup var options: LibraryOptions

    func run() throws {
        let library = try options.open()
        let formatter = ISO8601DateFormatter()
        for token in try library.accessTokens() {
            var line = "\(token.identifier)  \(token.level.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0))  \(token.name)"
            if token.level == .limited {
                line += "  (\(try library.limitedLibraryAssetIdentifiers(forAccessToken: token.identifier).count) assets)"
            }
            if let person = token.personIdentifier { line += "  of \(try library.person(named: person)?.name ?? person)" }
            line += "  created \(formatter.string(from: token.creationDate))"
            if let used = token.lastUseDate { line += ", used \(formatter.string(from: used))" }
            print(line)
        }
    }
}

struct TokenRevokeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "revoke", abstract: "Revoke a token at once.")

    @OptionGroup var options: LibraryOptions
    @Argument(help: "The token's identifier (tk_...).") var identifier: String

    func run() throws {
        guard try options.open().revokeAccessToken(withIdentifier: identifier) else {
            throw CLIError("no access token '\(identifier)'")
        }
    }
}

struct TokenAllowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "allow", abstract: "Add assets to a limited token's allow-list (a running server shows them at once).")

    @OptionGroup var options: LibraryOptions
    @Argument(help: "The token's identifier (tk_...).") var identifier: String
    @Argument(help: "Assets (identifier, UUID or unique prefix).") var assets: [String]

    func run() throws {
        try TokenAllowCommand.edit(options, identifier, assets, remove: false)
    }

    static func edit(_ options: LibraryOptions, _ identifier: String, _ assets: [String], remove: Bool) throws {
        let library = try options.open()
        guard let token = try library.accessToken(withIdentifier: identifier) else { throw CLIError("no access token '\(identifier)'") }
        guard token.level == .limited else { throw CLIError("\(identifier) is \(token.level.rawValue), not limited") }
        let identifiers = try library.withCurrent { try ObjectLookup.assets(assets, includeDeleted: true).map(\.localIdentifier) }
        let count = try library.changeLimitedLibrary(ofAccessToken: identifier, remove ? .remove(identifiers) : .add(identifiers))
        print("\(identifier) may see \(count) asset\(count == 1 ? "" : "s")")
    }
}

struct TokenDisallowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "disallow", abstract: "Remove assets from a limited token's allow-list.")

    @OptionGroup var options: LibraryOptions
    @Argument(help: "The token's identifier (tk_...).") var identifier: String
    @Argument(help: "Assets (identifier, UUID or unique prefix).") var assets: [String]

    func run() throws {
        try TokenAllowCommand.edit(options, identifier, assets, remove: true)
    }
}
