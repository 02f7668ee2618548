import ArgumentParser

/// `photos`: a command-line front end to a photo library, using only the public Photos API.
struct PhotosCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photos",
        abstract: "Manage a PhotoKit for Linux photo library.",
        discussion: """
            The library is the folder named by --library, else $PHOTOS_LIBRARY, else \
            $XDG_DATA_HOME/photos/Library.photoslibrary. It is created on first use.
            Objects are named by local identifier (UUID/L0/001), by UUID, or by a unique UUID prefix.
            """,
        subcommands: [
            ImportCommand.self, ListCommand.self, SearchCommand.self, InfoCommand.self, AlbumsCommand.self, AlbumCommand.self,
            FavoriteCommand.self, UnfavoriteCommand.self, HideCommand.self, UnhideCommand.self,
            DeleteCommand.self, DeletedCommand.self, RecoverCommand.self, CheckCommand.self, WatchCommand.self, HistoryCommand.self,
            ThumbnailCommand.self, ExportCommand.self, EditCommand.self, RevertCommand.self, CacheCommand.self, TokenCommand.self, UserCommand.self, ServeCommand.self,
            BackupCommand.self, RestoreCommand.self, RepairCommand.self, MigrateCommand.self, StorageCommand.self,
        ]
    )
}
