public import Foundation

/// Apple's format-string initialisers for `NSPredicate`, which swift-corelibs-foundation lacks.
///
/// The format is parsed once, at construction, into a `PredicateNode` that the predicate
/// keeps: fetches compile it to SQL, and `evaluate(with:)` walks it in memory against any
/// `PredicateEvaluable` (`PHAsset`, `PHCollection`) or `[String: Any]` dictionary.
///
/// Differences from Apple platforms:
/// - Only the grammar PhotoKit fetches accept is supported: comparisons, `AND`/`OR`/`NOT`,
///   string options, aggregates, `&`, and the common format specifiers. `ANY`/`ALL`/`SOME`/
///   `NONE`, `SUBQUERY`, functions, `MATCHES`, `$variables` and collection operators (`@count`)
///   are rejected like malformed formats.
/// - Swift can't catch Objective-C exceptions, so where Apple raises
///   `NSInvalidArgumentException` for a malformed format, `init(format:)` stops the process with
///   the ``PHPredicateError``'s description. Use `try NSPredicate(validatingFormat:)` for
///   formats that come from users.
/// - `predicateFormat` and `description` don't show the format on Linux (corelibs reports
///   `BLOCKPREDICATE`); the parsed tree's description is available to the module.
extension NSPredicate {
    /// A predicate parsed from `predicateFormat`, with `args` substituted for its format
    /// specifiers (`%@`, `%K`, `%d`, `%f`, ...) in order.
    ///
    /// A malformed format, a missing argument or an argument of the wrong type stops the
    /// process with a message naming the offending token and its character position, as
    /// Apple's exception would. On Linux arguments are `Any`, so a `PHAssetMediaType` or an
    /// option set may be passed directly as well as through `rawValue`.
    public convenience init(format predicateFormat: String, _ args: Any...) {
        self.init(format: predicateFormat, argumentArray: args)
    }

    /// A predicate parsed from `predicateFormat`, substituting `arguments` in order.
    ///
    /// Stops the process on a malformed format; see ``init(format:_:)``.
    public convenience init(format predicateFormat: String, argumentArray arguments: [Any]?) {
        let node: PredicateNode
        do {
            node = try PredicateParser.parse(format: predicateFormat, arguments: arguments ?? [])
        } catch {
            fatalError(error.description)
        }
        self.init(photosNode: node)
    }

    /// Like ``init(format:_:)``, but throws a malformed format's error instead of stopping
    /// the process. Linux only: use it for formats that come from users.
    public convenience init(validatingFormat predicateFormat: String, _ args: Any...) throws(PHPredicateError) {
        try self.init(validatingFormat: predicateFormat, argumentArray: args)
    }

    /// Like ``init(format:argumentArray:)``, but throws a malformed format's error instead of
    /// stopping the process. Linux only.
    public convenience init(validatingFormat predicateFormat: String, argumentArray arguments: [Any]?)
        throws(PHPredicateError)
    {
        self.init(photosNode: try PredicateParser.parse(format: predicateFormat, arguments: arguments ?? []))
    }

    /// A block predicate carrying `node`: it hands `node` to a `PredicateProbe` and
    /// evaluates it against anything else.
    convenience init(photosNode node: PredicateNode) {
        self.init(block: { object, _ in
            if let probe = object as? PredicateProbe {
                probe.node = node
                return false
            }
            return PredicateEvaluator.evaluate(node, onAny: object)
        })
    }

    /// The tree a fetch compiles, for predicates PhotoKit fetches accept:
    /// `NSPredicate(format:)` predicates, `NSPredicate(value:)`, and `NSCompoundPredicate`s of
    /// those (`NOT` uses the first subpredicate, as corelibs does; an empty `AND` is true and an
    /// empty `OR` false).
    ///
    /// Throws for `NSPredicate(block:)` predicates. Telling them apart from format predicates
    /// means calling the block once with an internal probe object; a user block that
    /// force-casts its argument traps there (a fetch with it would stop the process anyway).
    func photosPredicateNode() throws(PHPredicateError) -> PredicateNode {
        if let compound = self as? NSCompoundPredicate {
            var items: [PredicateNode] = []
            for subpredicate in compound.subpredicates {
                items.append(try subpredicate.photosPredicateNode())
            }
            switch compound.compoundPredicateType {
            case .and: return .and(items)
            case .or: return .or(items)
            case .not: return .not(items.first ?? .constant(false))
            @unknown default:
                throw PHPredicateError(
                    message: "unknown compound predicate type \(compound.compoundPredicateType.rawValue)",
                    token: "NSCompoundPredicate", position: 0, format: "")
            }
        }
        // corelibs' NSPredicate.isEqual(_:) is true only between value predicates of the same
        // value (a block predicate isn't even equal to itself), and it doesn't touch blocks.
        if NSPredicate(value: true).isEqual(self) { return .constant(true) }
        if NSPredicate(value: false).isEqual(self) { return .constant(false) }
        let probe = PredicateProbe()
        _ = evaluate(with: probe)
        if let node = probe.node { return node }
        throw PHPredicateError(
            message: "block predicates are not supported by PhotoKit fetches", token: "BLOCKPREDICATE",
            position: 0, format: "BLOCKPREDICATE")
    }

    /// The predicate in format syntax, when it is one PhotoKit fetches accept.
    var photosPredicateFormat: String? {
        // try?: a predicate fetches don't accept has no such format: nil is the answer (a
        // fetch with it reports why).
        (try? photosPredicateNode())?.description
    }
}

/// Passed to a predicate's block by ``NSPredicate/photosPredicateNode()`` to collect the tree.
final class PredicateProbe {
    var node: PredicateNode?
}

extension PredicateEvaluator {
    /// Evaluates `node` against whatever `evaluate(with:)` was given: a
    /// `PredicateEvaluable`, a ``PredicateObjectArgument`` (which has only `SELF`), a
    /// `[String: Any]` dictionary (values converted like format arguments), or anything else
    /// (which has no keys, so every comparison is false).
    static func evaluate(_ node: PredicateNode, onAny object: Any?) -> Bool {
        switch object.flatMap(PredicateArgumentConversion.unwrapped) {
        case let evaluable as any PredicateEvaluable:
            return evaluate(node, on: evaluable)
        case let identified as any PredicateObjectArgument:
            return evaluate(node, on: KeyedPredicateObject(["SELF": .object(localIdentifier: identified.predicateLocalIdentifier)]))
        case let dictionary as [String: Any]:
            return evaluate(node, on: KeyedPredicateObject(dictionary.compactMapValues(PredicateArgumentConversion.value(of:))))
        default:
            return evaluate(node, on: KeyedPredicateObject([:]))
        }
    }
}

/// A plain set of keyed values.
private struct KeyedPredicateObject: PredicateEvaluable {
    var values: [String: PredicateValue]

    init(_ values: [String: PredicateValue]) {
        self.values = values
    }

    func predicateValue(forKey key: String) -> PredicateValue? {
        values[key]
    }
}
