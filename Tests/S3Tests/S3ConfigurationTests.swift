import Foundation
import Testing

@testable import S3

/// Credentials, region, endpoint and addressing found where the AWS CLI and boto3 find them.
@Suite("S3 configuration from AWS's places")
struct S3ConfigurationTests {
    /// A home folder with `~/.aws/credentials` and `~/.aws/config` of these texts.
    static func home(credentials: String? = nil, config: String? = nil) throws -> URL {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("aws-home-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home.appendingPathComponent(".aws"), withIntermediateDirectories: true)
        if let credentials { try credentials.write(to: home.appendingPathComponent(".aws/credentials"), atomically: true, encoding: .utf8) }
        if let config { try config.write(to: home.appendingPathComponent(".aws/config"), atomically: true, encoding: .utf8) }
        return home
    }

    static let credentialsFile = """
        [default]
        aws_access_key_id = AKIADEFAULT
        aws_secret_access_key = default-secret

        # the household's NAS
        [nas]
        aws_access_key_id=AKIANAS
        aws_secret_access_key=nas/secret+
        aws_session_token = nas-token
        """

    static let configFile = """
        [default]
        region = eu-west-3

        [profile nas]
        region = garage
        s3 =
          addressing_style = path
          endpoint_url = http://nas.local:3900
        ; a comment
        [profile minio]
        endpoint_url = https://minio.example:9000
        aws_access_key_id = AKIAMINIO
        aws_secret_access_key = minio-secret
        """

    @Test func theEnvironmentComesFirst() throws {
        let home = try Self.home(credentials: Self.credentialsFile, config: Self.configFile)
        defer { try? FileManager.default.removeItem(at: home) }
        let configuration = try S3Configuration.resolve(
            environment: [
                "AWS_ACCESS_KEY_ID": "AKIAENV", "AWS_SECRET_ACCESS_KEY": "env-secret", "AWS_SESSION_TOKEN": "env-token",
                "AWS_REGION": "ap-southeast-2", "AWS_DEFAULT_REGION": "us-west-1", "AWS_ENDPOINT_URL": "http://127.0.0.1:9000",
                "AWS_ENDPOINT_URL_S3": "http://127.0.0.1:9001", "AWS_PROFILE": "nas",
            ], home: home)
        #expect(configuration.credentials == AWSCredentials(accessKeyID: "AKIAENV", secretAccessKey: "env-secret", sessionToken: "env-token"))
        #expect(configuration.region == "ap-southeast-2")
        #expect(configuration.endpoint?.absoluteString == "http://127.0.0.1:9001")
        #expect(configuration.addressingStyle == .path)
    }

    @Test func profilesComeFromTheSharedFiles() throws {
        let home = try Self.home(credentials: Self.credentialsFile, config: Self.configFile)
        defer { try? FileManager.default.removeItem(at: home) }
        let byDefault = try S3Configuration.resolve(environment: [:], home: home)
        #expect(byDefault.credentials == AWSCredentials(accessKeyID: "AKIADEFAULT", secretAccessKey: "default-secret"))
        #expect(byDefault.region == "eu-west-3" && byDefault.endpoint == nil && !byDefault.usesPathStyle)

        let nas = try S3Configuration.resolve(environment: ["AWS_PROFILE": "nas"], home: home)
        #expect(nas.credentials == AWSCredentials(accessKeyID: "AKIANAS", secretAccessKey: "nas/secret+", sessionToken: "nas-token"))
        #expect(nas.region == "garage" && nas.endpoint?.absoluteString == "http://nas.local:3900" && nas.usesPathStyle)

        // Keys in the config file's profile; AWS_DEFAULT_PROFILE when AWS_PROFILE isn't set.
        let minio = try S3Configuration.resolve(environment: ["AWS_DEFAULT_PROFILE": "minio"], home: home)
        #expect(minio.credentials.accessKeyID == "AKIAMINIO" && minio.region == "us-east-1")
        #expect(minio.endpoint?.absoluteString == "https://minio.example:9000" && minio.usesPathStyle, "a custom endpoint: by path")

        let ignoring = try S3Configuration.resolve(environment: ["AWS_PROFILE": "nas", "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS": "true"], home: home)
        #expect(ignoring.endpoint == nil)
    }

    @Test func otherFilesAreNamedByTheirVariables() throws {
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(at: home) }
        let credentials = home.appendingPathComponent("creds")
        try "[default]\naws_access_key_id = AKIAFILE\naws_secret_access_key = file-secret\n".write(to: credentials, atomically: true, encoding: .utf8)
        let configuration = try S3Configuration.resolve(environment: ["AWS_SHARED_CREDENTIALS_FILE": credentials.path], home: home)
        #expect(configuration.credentials.accessKeyID == "AKIAFILE")
    }

    @Test func missingOrBadSettingsAreNamed() throws {
        let home = try Self.home(config: "[profile odd]\ns3 =\n  addressing_style = sideways\naws_access_key_id = a\naws_secret_access_key = b\n")
        defer { try? FileManager.default.removeItem(at: home) }
        #expect {
            try S3Configuration.resolve(environment: ["AWS_PROFILE": "nobody"], home: home)
        } throws: { error in
            let error = error as? S3Error
            return error?.kind == .credentials && error?.message.contains("AWS_ACCESS_KEY_ID") == true && error?.message.contains("'nobody'") == true
        }
        #expect {
            try S3Configuration.resolve(environment: ["AWS_PROFILE": "odd"], home: home)
        } throws: { error in
            (error as? S3Error)?.message.contains("sideways") == true
        }
        #expect {
            try S3Configuration.resolve(environment: ["AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "b", "AWS_ENDPOINT_URL": "ftp://x"], home: home)
        } throws: { error in
            (error as? S3Error)?.message.contains("ftp://x") == true
        }
    }

    @Test func secretsAreNotDescribed() {
        let credentials = AWSCredentials(accessKeyID: "AKIAX", secretAccessKey: "very-secret", sessionToken: "token-secret")
        let text = "\(credentials) \(S3Configuration(credentials: credentials))"
        #expect(text.contains("AKIAX") && !text.contains("very-secret") && !text.contains("token-secret"))
    }
}
