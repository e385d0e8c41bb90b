#!/usr/bin/env bash
# Builds .device/ (ignored by git): a jlink'd JRE, the runnable jar, the JUnit console launcher and every module's
# test classes with their dependencies, so scripts/device-check.sh can run on a GPU machine that has no Java.
# Run here, then carry .device/bundle.tar.xz to the GPU machine (the unpacked .device is about 70 MiB since the JRE
# has java.desktop, over the device tool's 64 MiB carry; the bundle is about 45 MB); device-check.sh unpacks it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
out=.device
rm -rf "$out" && mkdir -p "$out/lib" "$out/classes"
# package, not install: the reactor builds every module here and leaves the shared ~/.m2 alone
mvn -q -B -ntp -DskipTests package
for m in core pcie-inspect gdr-probe collectives reports cli; do
  # test classes only (the main ones and their dependencies are in the runnable jar); no fixtures: the
  # gpu-tagged tests read the live machine
  [ -d "$m/target/test-classes" ] && (cd "$m/target/test-classes" && find . -name '*.class' -exec cp --parents {} "$root/$out/classes/" \;)
done
# AssertJ is the one test library the JUnit console launcher does not bring
mvn -q -B -ntp dependency:copy -Dartifact=org.assertj:assertj-core:3.27.6 -DoutputDirectory="$out/lib"
mvn -q -B -ntp dependency:copy -Dartifact=org.junit.platform:junit-platform-console-standalone:1.14.4 \
  -DoutputDirectory="$out" -Dmdep.stripVersion=true
cp cli/target/nccl-doctor.jar "$out/"
# nccl-tests' source for device-check.sh to build against the pip NCCL's headers (the GPU machine has no network):
# NCCL_TESTS_GIT names a clone's git directory; nothing of it is committed here
if [ -n "${NCCL_TESTS_GIT:-}" ]; then
  mkdir -p "$out/nccl-tests-src" && git --git-dir="$NCCL_TESTS_GIT" archive HEAD | tar -x -C "$out/nccl-tests-src"
fi
# Temurin 25's jlink when present: its libjvm needs only GLIBC 2.17 (reference/java-deps.md §5); zip-9 keeps the
# whole carry under the device tool's 64 MiB. java.desktop: the charts (XChart draws with java.awt); without it every
# chart and HTML output dies with NoClassDefFoundError. The tests render an HTML report with exactly these modules
# (StandInNodeTest), so this line is read there.
modules=java.base,java.logging,java.xml,java.management,jdk.unsupported,java.naming,java.desktop
jdk="${JLINK_JDK:-/usr/lib/jvm/temurin-25-jdk-amd64}"
compress="zip-9"
if [ ! -x "$jdk/bin/jlink" ]; then
  jdk="$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")"
  compress=2
fi
"$jdk/bin/jlink" --add-modules "$modules" \
  --strip-debug --no-header-files --no-man-pages --compress="$compress" --output "$out/jre"
strip --strip-unneeded "$out/jre/lib/server/libjvm.so" 2>/dev/null || true
tar -C "$out" -cf - jre lib classes junit-platform-console-standalone.jar nccl-doctor.jar $( [ -d "$out/nccl-tests-src" ] && echo nccl-tests-src) \
  | xz -T0 -6 > "$out/bundle.tar.xz"
du -sh --apparent-size "$out/jre" "$out/lib" "$out/bundle.tar.xz"
