# The task index. `make demo` and `make test` are the two commands a newcomer needs.
SWIFT ?= swift

.PHONY: demo demo-cluster test build deps fixtures consumer docs reliability bench bench-import bench-image bench-serve bench-gallery bench-video bench-range bench-people bench-postgres bench-coreimage sanitize tsan fuzz clean

## Install what is missing, build, import real sample photos into a fresh library, summarise.
demo: deps
	scripts/demo.sh

## The demo on two `photos serve` instances over one throwaway PostgreSQL, nginx in front
## (http://127.0.0.1:8080/); see docs/ARCHITECTURE.md, "Several instances".
demo-cluster: deps
	scripts/demo-cluster.sh

## Install what is missing and run every test: the Swift suites, the gallery end to end in
## headless Chromium (screenshots in .build/e2e-artifacts/), then the consumer check (a package
## that depends on this one by URL and version, built in debug and release, run on real photos).
test: deps fixtures
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	# The behaviour suites again, every library on PostgreSQL (a throwaway server of the run's own).
	# Time limits (which only end a hung test) 3x: a debug build of postgres-nio decodes a row in
	# ~0.4 ms, and with the whole pass on two cores a socket test's 60 s ran out (CI, 12-03).
	PHOTOKIT_TEST_STORE=postgres PHOTOKIT_TEST_TIME_SCALE=3 $(SWIFT) test --skip-build --filter 'PhotosTests\.|PhotosServerTests\.|PhotosS3Tests\.'
	python3 Tests/EndToEnd/gallery_e2e.py "$$($(SWIFT) build --show-bin-path)/photos" .corpus
	python3 Tests/EndToEnd/video_e2e.py "$$($(SWIFT) build --show-bin-path)/photos" .corpus
	# People: sign-in with a name and password, what a person who doesn't own the library sees.
	python3 Tests/EndToEnd/people_e2e.py "$$($(SWIFT) build --show-bin-path)/photos" .corpus
	# Two `photos serve` instances over one throwaway PostgreSQL: fan-out, kill -9, catch-up.
	python3 Tests/EndToEnd/cluster_e2e.py "$$($(SWIFT) build --show-bin-path)/photos" .corpus
	python3 Tests/EndToEnd/bucket_cluster_e2e.py "$$($(SWIFT) build --show-bin-path)/photos" .corpus
	scripts/check-consumer.sh

## The consumer check alone (Tests/Consumers/VersionedClient; see scripts/check-consumer.sh).
consumer: deps fixtures
	scripts/check-consumer.sh

## The Photos documentation (DocC through swift-docc-plugin, with the articles "Moving PhotoKit
## code to Linux" and "StarGallery on Linux") into .build/docs; any DocC warning fails it.
docs: deps
	scripts/build-docs.sh

build:
	$(SWIFT) build

deps:
	scripts/install-deps.sh

## Small real photos from Debian packages, for tests (into .fixtures/, not committed), and the
## real-photo corpus the metadata oracle test compares with exiftool (into .corpus/).
fixtures:
	scripts/fetch-fixtures.sh
	scripts/fetch-corpus.sh .corpus --minimal >/dev/null

## The reliability harness (docs/reliability.md): kill -9 during imports and change blocks,
## concurrent writer processes, hostile requests against photos serve; drives the release
## binary (~10-15 min on 2 cores). Not part of `make test`. Counts and the seed: see
## scripts/reliability/run.py --help (RELIABILITY_* variables).
reliability: deps fixtures
	$(SWIFT) build -c release --product photos
	python3 scripts/reliability/run.py "$$($(SWIFT) build -c release --show-bin-path)/photos"

## The 1,000,000-asset store and change-observation benchmarks against sqlite3 (release build).
bench: deps
	Benchmarks/run-store-benchmark.sh

## 1,000 12-megapixel JPEGs imported side by side with digiKam, Shotwell and an exiftool +
## vipsthumbnail pipeline (~25 min; installs the peers with apt).
bench-import: deps
	Benchmarks/run-import-benchmark.sh

## PHImageManager loading 256 px images of 66 real photos, cold and from the memory cache, side by
## side with vipsthumbnail, ImageMagick, Pillow and a libjpeg-turbo decode floor (~5 min; installs
## the peers with apt, builds the photo set once into Benchmarks/.data/).
bench-image: deps
	Benchmarks/run-image-benchmark.sh

## Browser renditions of 6 x 20 s 1080p HEVC clips by `photos cache warm --videos`, side by side
## with the plain ffmpeg command doing the same conversion (~6 min in release; makes the clips once).
bench-video: deps
	Benchmarks/run-video-benchmark.sh

## Random 1 MiB byte ranges of a 200 MB video from photos serve, side by side with nginx serving
## the same file (~3 min; installs nginx and wrk).
bench-range: deps
	Benchmarks/run-range-benchmark.sh

## People (issue 34): a person's fetches in 1,000,000 assets shared by 10 against a library of
## 100,000; password guessing and a shared album's change reaching 5 members' live clients.
bench-people: deps
	Benchmarks/run-people-benchmark.sh
	Benchmarks/run-sharing-benchmark.sh

## PostgreSQL against SQLite: favorite toggles through one and two instances, a change reaching
## the other instance's live client, then the database at a distance (a proxy delaying 0.5 and
## 2 ms each way): toggles and cached thumbnails (~6 min; installs wrk, nginx and postgresql).
bench-postgres: deps
	Benchmarks/run-cluster-benchmark.sh
	Benchmarks/run-distance-benchmark.sh

## Core Image: a 12 MP photo through CIColorControls + CISepiaTone + CIVignette and a JPEG against
## the same operations with the vips command; a 10-thumbnail strip of a 1080p movie
## (AVAssetImageGenerator) against ffmpeg (~15 min with the release build; installs libvips-tools).
bench-coreimage: deps
	Benchmarks/run-coreimage-benchmark.sh

## photos serve under wrk: cached thumbnails side by side with nginx serving the same files, a
## 60 s mixed load of thumbnail reads and favorite toggles, then toggles alone, with the server's
## memory and write-ahead log sampled (~6 min; installs wrk and nginx).
bench-serve: deps
	Benchmarks/run-serve-benchmark.sh

## The web gallery of a 100,000-photo library scrolled in headless Chromium: frame times,
## thumbnails on screen, jumps; thumbnails made ahead and not (~3 min).
## `make bench-gallery ARGS=--scale`: the gallery at 1,000,000 (issue 19, aim 2): server start
## to first screen, library, favorites and album views, live updates, RSS after 10 min of
## scripted use (~18 min, ~5 min more the first time to make the library).
bench-gallery: deps
	Benchmarks/run-gallery-benchmark.sh $(ARGS)

## libFuzzer over the code that reads untrusted input (the EXIF/TIFF, JPEG, PNG, ISO-BMFF and
## QuickTime parsers, the Apple maker note, MediaProbe with libvips, predicates run against a real
## library, query strings, multipart uploads), under AddressSanitizer with leak detection, seeded
## from the real corpus. FUZZ_TIME seconds per target (default 90: ~15 min for the 10 targets,
## plus a first build) or FUZZ_RUNS executions; fails on any crash, hang, leak or out-of-memory,
## keeping the input in .build-fuzz/findings/ (see docs/reliability.md).
fuzz: deps fixtures
	scripts/fuzz.sh

clean:
	rm -rf .build Benchmarks/.build .demo

## Every test under AddressSanitizer (catches use-after-free and overflows; ~3x slower).
sanitize: deps fixtures
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	$(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan

## Every test under ThreadSanitizer (data races, in this package's code and at its edges); any
## report fails the run.
tsan: deps fixtures
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	scripts/run-tsan.sh .build-tsan
