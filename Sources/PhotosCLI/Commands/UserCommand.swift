import ArgumentParser
import Foundation
import Photos

#if canImport(Glibc)
    import Glibc
#endif

/// `photos user add|list|remove|passwd`: the people of a household's library.
struct UserCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Add, list and remove the people who sign in to 'photos serve'.",
        discussion: """
            A library without people is served as one person's, to holders of access tokens. Once \
            it has people, everyone signs in, in the gallery with their name and password, or with \
            a token of theirs ('photos token create --user NAME'). The first person added owns the \
            library (what it holds, and its tokens, become theirs) and is an administrator. \
            Passwords are read from the terminal (asked twice) or, when standard input is not a \
            terminal, as its first line; never from the command line. The library keeps only their \
            bcrypt hashes.
            """,
        subcommands: [UserAddCommand.self, UserListCommand.self, UserRemoveCommand.self, UserPasswordCommand.self])
}

struct UserAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a person (asks for their password).")

    @OptionGroup var options: LibraryOptions
    @Argument(help: "The name they sign in with (unique without regard to case).") var name: String
    @Flag(help: "May add and remove people.") var admin = false

    func run() throws {
        let library = try options.open()
        let password = try PasswordInput.read(prompt: "Password for \(name): ", confirm: true)
        let person = try library.addPerson(named: name, password: password, isAdmin: admin)
        var roles: [String] = []
        if person.isOwner { roles.append("owner of the library") }
        if person.isAdmin { roles.append("administrator") }
        print("\(person.identifier)  \(person.name)\(roles.isEmpty ? "" : "  (" + roles.joined(separator: ", ") + ")")")
    }
}

struct UserListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the people (never their passwords).")

    @OptionGroup var options: LibraryOptions

    func run() throws {
        let formatter = ISO8601DateFormatter()
        for person in try options.open().libraryPeople() {
            var roles: [String] = []
            if person.isOwner { roles.append("owner") }
            if person.isAdmin { roles.append("admin") }
            let role = roles.joined(separator: ",").padding(toLength: 11, withPad: " ", startingAt: 0)
            print("\(person.identifier)  \(role)  \(person.name)  added \(formatter.string(from: person.creationDate))")
        }
    }
}

struct UserRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remove", abstract: "Remove a person: their sessions end and their tokens are revoked at once.")

    @OptionGroup var options: LibraryOptions
    @Argument(help: "The person's name or identifier (pe_...).") var name: String

    func run() throws {
        guard try options.open().removePerson(named: name) else { throw CLIError("no person named '\(name)'") }
    }
}

struct UserPasswordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passwd", abstract: "Set a person's password (asks for it); their sessions end.")

    @OptionGroup var options: LibraryOptions
    @Argument(help: "The person's name or identifier (pe_...).") var name: String

    func run() throws {
        let library = try options.open()
        guard let person = try library.person(named: name) else { throw CLIError("no person named '\(name)'") }
        let password = try PasswordInput.read(prompt: "New password for \(person.name): ", confirm: true)
        try library.setPassword(password, forPersonNamed: person.identifier)
        print("\(person.name)'s password is set; their sessions ended")
    }
}

/// A password from the terminal, without echo, or from standard input's first line.
enum PasswordInput {
    static func read(prompt: String, confirm: Bool) throws -> String {
        guard isatty(STDIN_FILENO) == 1 else {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw CLIError("no password: standard input was empty (give it as the first line)")
            }
            return line
        }
        let first = try readHidden(prompt)
        if confirm, try readHidden("Again: ") != first { throw CLIError("the two passwords differ") }
        return first
    }

    private static func readHidden(_ prompt: String) throws -> String {
        FileHandle.standardError.write(Data(prompt.utf8))
        var saved = termios()
        tcgetattr(STDIN_FILENO, &saved)
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        guard let line = readLine(strippingNewline: true) else { throw CLIError("no password given") }
        return line
    }
}
