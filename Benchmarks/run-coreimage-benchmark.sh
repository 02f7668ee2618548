#!/usr/bin/env bash
# Core Image and thumbnail strips side by side with their peers, in one run (issue 38):
#   - a 12-megapixel photo through CIColorControls + CISepiaTone + CIVignette and a JPEG encode
#     (CoreImageBenchmark, release) against the same operations with the `vips` command, one
#     command per operation as a script does it (intermediates in /dev/shm);
#   - a strip of 10 thumbnails 120 px tall from a 1080p movie (AVAssetImageGenerator) against
#     `ffmpeg` extracting the same frames, two at a time as the generator does.
# Each measure alternates ours and the peer's, RUNS times; prints the medians and ratios.
#
#   Benchmarks/run-coreimage-benchmark.sh [--runs 5]
set -euo pipefail
# shellcheck source=peers/bench-common.sh
. "$(dirname "${BASH_SOURCE[0]}")/peers/bench-common.sh"
RUNS=5
parse_options "$@" <<'OPTIONS'
--runs RUNS
OPTIONS
install_missing libvips-tools ffmpeg
WORK="$HERE/.data/coreimage"
SHM=$(mktemp -d /dev/shm/coreimage.XXXXXX)
trap 'rm -rf "$SHM"' EXIT
mkdir -p "$WORK"
say "Building CoreImageBenchmark (release)"
swift build -c release --package-path "$HERE" --product CoreImageBenchmark >"$WORK/build.log" 2>&1 || { tail -30 "$WORK/build.log"; exit 1; }
BENCH="$(swift build -c release --package-path "$HERE" --show-bin-path)/CoreImageBenchmark"

PHOTO="$WORK/photo-12mp.jpg"
MOVIE="$WORK/movie-1080p.mp4"
[ -f "$PHOTO" ] || ffmpeg -v error -y -f lavfi -i "testsrc2=size=4000x3000" -frames:v 1 -q:v 2 "$PHOTO"
[ -f "$MOVIE" ] || ffmpeg -v error -y -f lavfi -i "testsrc2=size=1920x1080:rate=30:duration=20" -c:v libx264 -preset fast -pix_fmt yuv420p "$MOVIE"

# The same operations with the vips command. The colour matrix: CIColorControls (saturation 1.2,
# brightness 0.02, contrast 1.1) then CISepiaTone 0.6, on linear light, as one 3 × 3 matrix and
# an offset (docs/core-image.md); the vignette: 1 − 0.8 × smoothstep(d / half the diagonal).
read -r W H < <(python3 -c "import struct,sys
from subprocess import check_output
print(*check_output(['ffprobe','-v','error','-select_streams','v:0','-show_entries','stream=width,height','-of','csv=p=0','$PHOTO']).decode().strip().split(','))")
python3 - "$SHM" <<'PY'
import sys
luma = [0.2126, 0.7152, 0.0722]
s, b, c, i = 1.2, 0.02, 1.1, 0.6
sat = [[(s if r == k else 0) + (1 - s) * luma[k] for k in range(3)] for r in range(3)]
controls = [[c * v for v in row] for row in sat]
offset = [c * b + 0.5 * (1 - c)] * 3
sepia = [[0.393, 0.769, 0.189], [0.349, 0.686, 0.168], [0.272, 0.534, 0.131]]
mix = [[(1 - i) * (1 if r == k else 0) + i * sepia[r][k] for k in range(3)] for r in range(3)]
matrix = [[sum(mix[r][j] * controls[j][k] for j in range(3)) for k in range(3)] for r in range(3)]
bias = [sum(mix[r][j] * offset[j] for j in range(3)) for r in range(3)]
open(sys.argv[1] + "/colour.mat", "w").write("3 3\n" + "\n".join(" ".join(f"{v:.9f}" for v in row) for row in matrix) + "\n")
open(sys.argv[1] + "/bias.txt", "w").write(" ".join(f"{v:.9f}" for v in bias))
open(sys.argv[1] + "/sum.mat", "w").write("2 1\n1 1\n")
PY
BIAS=$(cat "$SHM/bias.txt")
peer_pipeline() {   # one run of the vips commands; OUT the JPEG
    local d="$SHM" cx cy radius
    cx=$(python3 -c "print($W/2)"); cy=$(python3 -c "print($H/2)")
    radius=$(python3 -c "print((($W**2+$H**2)**0.5)/2)")
    vips colourspace "$PHOTO" "$d/lin.v" scrgb
    vips recomb "$d/lin.v" "$d/rec.v" "$d/colour.mat"
    # A leading space keeps a negative number from reading as an option.
    vips linear "$d/rec.v" "$d/col.v" "1 1 1" " $BIAS"
    vips xyz "$d/xy.v" "$W" "$H"
    vips linear "$d/xy.v" "$d/off.v" "1 -1" " $(python3 -c "print(0.5-$cx, $H-0.5-$cy)")"
    vips multiply "$d/off.v" "$d/off.v" "$d/sq.v"
    vips recomb "$d/sq.v" "$d/d2.v" "$d/sum.mat"
    vips math2_const "$d/d2.v" "$d/dist.v" pow 0.5
    vips linear "$d/dist.v" "$d/s.v" "$(python3 -c "print(1/$radius)")" 0
    vips linear "$d/s.v" "$d/t.v" " -1" 1
    vips abs "$d/t.v" "$d/ta.v"
    vips add "$d/t.v" "$d/ta.v" "$d/u.v"
    vips linear "$d/u.v" "$d/sc.v" " -0.5" 1
    vips multiply "$d/sc.v" "$d/sc.v" "$d/s2.v"
    vips multiply "$d/s2.v" "$d/sc.v" "$d/s3.v"
    vips linear "$d/s2.v" "$d/p2.v" 3 0
    vips linear "$d/s3.v" "$d/p3.v" 2 0
    vips subtract "$d/p2.v" "$d/p3.v" "$d/sm.v"
    vips linear "$d/sm.v" "$d/f.v" " -0.8" 1
    vips multiply "$d/col.v" "$d/f.v" "$d/vig.v"
    vips copy "$d/vig.v" "$d/tag.v" --interpretation scrgb
    vips colourspace "$d/tag.v" "$d/out.v" srgb
    vips jpegsave "$d/out.v" "$1" --Q 85
}
peer_strip() {   # ffmpeg extracting the same 10 frames, 120 px tall, two at a time
    local duration
    duration=$(ffprobe -v error -show_entries format=duration -of csv=p=0 "$MOVIE")
    python3 -c "d=$duration; print('\n'.join(f'{d*(k+0.5)/10:.6f}' for k in range(10)))" |
        xargs -P 2 -I{} ffmpeg -v error -nostdin -ss {} -i "$MOVIE" -frames:v 1 -vf scale=-2:120 -f rawvideo -pix_fmt rgb24 -y /dev/null
}
now_ms() { date +%s%N | awk '{printf "%.1f", $1/1e6}'; }

ours_p=() peer_p=() ours_s=() peer_s=()
say "Load before: $(load1)"
for run in $(seq "$RUNS"); do
    ours_p+=("$("$BENCH" pipeline "$PHOTO" "$SHM/ours.jpg" 1 | sed -n 's/RESULT pipeline_ms=//p')")
    start=$(now_ms); peer_pipeline "$SHM/peer.jpg"; end=$(now_ms)
    peer_p+=("$(python3 -c "print(round($end-$start,1))")")
    ours_s+=("$("$BENCH" strip "$MOVIE" 1 | sed -n 's/RESULT strip_ms=//p')")
    start=$(now_ms); peer_strip; end=$(now_ms)
    peer_s+=("$(python3 -c "print(round($end-$start,1))")")
    say "run $run: pipeline ours ${ours_p[-1]} ms, vips ${peer_p[-1]} ms; strip ours ${ours_s[-1]} ms, ffmpeg ${peer_s[-1]} ms"
done
mp=$(printf '%s\n' "${ours_p[@]}" | median); vp=$(printf '%s\n' "${peer_p[@]}" | median)
ms=$(printf '%s\n' "${ours_s[@]}" | median); fs=$(printf '%s\n' "${peer_s[@]}" | median)
# The two outputs agree: mean absolute difference of the JPEGs' pixels (0–255).
difference=$(vips subtract "$SHM/ours.jpg" "$SHM/peer.jpg" "$SHM/diff.v" && vips abs "$SHM/diff.v" "$SHM/absdiff.v" && vips avg "$SHM/absdiff.v")
echo
echo "| Measure ($RUNS runs, medians; load $(load1)) | PhotoKit | peer | PhotoKit / peer |"
echo "| --- | ---: | ---: | ---: |"
echo "| 12 MP photo: CIColorControls + CISepiaTone + CIVignette + JPEG (peer: the vips command) | $mp ms | $vp ms | $(python3 -c "print(f'{$mp/$vp:.2f}×')") |"
echo "| 10 thumbnails of a 1080p movie, 120 px tall (peer: ffmpeg, 2 at a time) | $ms ms | $fs ms | $(python3 -c "print(f'{$ms/$fs:.2f}×')") |"
echo
echo "Mean absolute difference between the two JPEGs' pixels: $difference (of 255)."
