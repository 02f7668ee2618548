public import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
public import Logging
public import Photos
import ServiceLifecycle

/// Builds `photos serve`: the gallery's files, the JSON API under `/api` and the live
/// WebSocket, for one library. Tests call it and drive the result with HummingbirdTesting;
/// `photos serve` runs it.
///
/// - Note: Linux addition; Apple ships no server. The API is the first client of the public
///   Photos API: every route is built from fetches, change requests and image requests.
public func buildApplication(
    library: PHPhotoLibrary, configuration: ServerConfiguration, logger: Logger = Logger(label: "photos.serve")
) throws -> some ApplicationProtocol {
    try configuration.validate()
    let service = LibraryService(library: library, configuration: configuration)
    let router = try buildRouter(service)
    let webSocketRouter = Router(context: PhotosRequestContext.self)
    LiveRoutes.add(to: webSocketRouter, service: service)
    let webSocketResponder = webSocketRouter.buildResponder()
    // Built when the server starts: a pipeline it can't build stops it there.
    let server = HTTPServerBuilder { responder in
        let channel = PhotosChildChannel(responder: responder, webSocketResponder: webSocketResponder, service: service)
        try channel.checkLayout(logger: logger)
        return channel
    }
    var application = Application(
        router: router, server: server,
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "photos"),
        logger: logger)
    application.addServices(AccessWatcher(service: service))
    if configuration.ownsLibrary { application.addServices(DatabaseConnections(library: library)) }
    // The stand-in password hash, made now rather than at the first sign-in with an unknown name.
    let people = library.people
    Task.detached(priority: .utility) { people.prepareSignIns() }
    return application
}

func buildRouter(_ service: LibraryService) throws -> Router<PhotosRequestContext> {
    let router = Router(context: PhotosRequestContext.self)
    router.add(middleware: SecurityHeadersMiddleware())
    try StaticRoutes.load().add(to: router)
    LinkRoutes(service: service).addPage(to: router)
    HealthRoutes(service: service).add(to: router)

    let api = router.group("api").add(middleware: SameOriginWritesMiddleware())
    SessionRoutes(service: service).addPublic(to: api)
    LinkRoutes(service: service).addPublic(to: api)
    let secured = api.group().add(middleware: AccessMiddleware(gate: service.gate))
    SessionRoutes(service: service).add(to: secured)
    AssetRoutes(service: service).add(to: secured)
    VideoRoutes(service: service).add(to: secured)
    ImageRoutes(service: service).add(to: secured)
    CollectionRoutes(service: service).add(to: secured)
    ChangeRoutes(service: service).add(to: secured)
    UploadRoutes(service: service).add(to: secured)
    TokenRoutes(service: service).add(to: secured)
    PeopleRoutes(service: service).add(to: secured)
    PartnerRoutes(service: service).add(to: secured)
    LinkRoutes(service: service).add(to: secured)
    return router
}

/// The library's database connections as a service of the server's (a PostgreSQL library's
/// pool, postgres-nio's `PostgresClient`, runs from the library's first read, which comes
/// before the server starts): closed at the server's graceful shutdown, after the HTTP server
/// (services stop in the reverse of their order, and the server is the last) has answered
/// its last request.
struct DatabaseConnections: Service {
    let library: PHPhotoLibrary

    func run() async throws {
        try? await gracefulShutdown()
        library.closeDatabaseConnections()
    }
}

/// Follows the library's access changes (tokens, allow-lists) made by other processes.
struct AccessWatcher: Service {
    let service: LibraryService

    func run() async throws {
        // Made off the event loops: the stream reads the access version it starts from.
        let library = service.library
        let changes = try await service.quickly("access changes") { library.access.changes }
        await withGracefulShutdownHandler {
            for await _ in changes.cancelOnGracefulShutdown() {
                service.accessChanged()
            }
        } onGracefulShutdown: {}
    }
}
