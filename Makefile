# largedir: see README.md.  GNU make; Linux only.

VERSION  = 0.1.0
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share/largedir

CC      ?= cc
CFLAGS  ?= -O2 -g
CFLAGS  += -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -MMD -MP
CPPFLAGS += -D_GNU_SOURCE -Isrc -I$(O) -DLD_VERSION='"$(VERSION)"' \
	    -DLD_DATADIR='"$(DATADIR)"'
# The commit a binary is built from goes into every result, so it lives in
# $(O)/gitid.h, written again whenever it changes (see its rule below):
# a -D flag would stay in objects that were not rebuilt.
GIT_DESCRIBE := $(shell git describe --always --dirty 2>/dev/null || echo unknown)
# util-linux's libmount and libblkid: mounting targets, probing devices.
CPPFLAGS += $(shell pkg-config --cflags mount blkid 2>/dev/null)
LDLIBS   += $(shell pkg-config --libs mount blkid 2>/dev/null || \
	    echo -lmount -lblkid)
# libnfs: the NFS backend's client (src/nfs/nfsrpc.c).
CPPFLAGS += $(shell pkg-config --cflags libnfs 2>/dev/null) \
	    -DLD_LIBNFS='"$(shell pkg-config --modversion libnfs 2>/dev/null)"'
LDLIBS   += $(shell pkg-config --libs libnfs 2>/dev/null || echo -lnfs)
# libpfm4: CPU and kernel counters (src/machine/perf.c).  PFM=0 builds
# the stubs of src/machine/perf_none.c instead and leaves out test_perf;
# test_perf_none checks the stubs in both builds.
PFM     ?= 1
ifeq ($(PFM),1)
PFM_OFF  = src/machine/perf_none.c
CPPFLAGS += $(shell pkg-config --cflags libpfm 2>/dev/null)
LDLIBS   += $(shell pkg-config --libs libpfm 2>/dev/null || echo -lpfm)
else
PFM_OFF  = src/machine/perf.c tests/unit/test_perf.c
endif

# Open MPI: --mpi (src/engine/ranks.c, with LD_MPI).  MPI=1 builds
# largedir with it; make check also builds $(O)/largedir-mpi beside the default binary
# when Open MPI is installed, so that both builds are tested.
MPI_CFLAGS = $(shell pkg-config --cflags ompi-c 2>/dev/null)
MPI_LIBS   = $(shell pkg-config --libs ompi-c 2>/dev/null)
MPI     ?= 0
ifeq ($(MPI),1)
BIN_MPI  = $(O)/mpi/ranks.o
BIN_LIBS = $(MPI_LIBS)
endif
MPI_BIN  = $(if $(MPI_LIBS),$(O)/largedir-mpi)

# make check SANITIZE=1 builds everything again, with ASan and UBSan, in
# a directory of its own so the two builds never mix objects.
ifeq ($(SANITIZE),1)
O       ?= build-asan
CFLAGS  += -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
	   -fno-sanitize-recover=undefined
LDFLAGS += -fsanitize=address,undefined
else
O       ?= build
endif

# Debian packages: what building and testing need, and what is optional.
# DEB_NFS is the NFS server of tests/nfs-server.sh (NFS-Ganesha on an ext4
# loop image); libnfs-utils gives the tests nfs-cp and nfs-ls; nfs-common
# gives t_nfsstat nfs-utils' mountstats, to check largedir nfsstat against
# (installing it starts no daemon where policy-rc.d forbids it or no init
# runs them; the tests start none and mount nothing).
DEB_BUILD = gcc make libc6-dev pkg-config libmount-dev libblkid-dev \
	    libpfm4-dev libnfs-dev
DEB_FS    = e2fsprogs xfsprogs btrfs-progs
DEB_NFS   = nfs-ganesha nfs-ganesha-vfs rpcbind
DEB_TEST  = libcmocka-dev libjansson-dev jq strace procps util-linux bsdutils \
	    mandoc gnuplot-nox libxml2-utils python3 chromium $(DEB_FS) \
	    $(DEB_NFS) libnfs-utils nfs-common $(DEB_UML) libopenmpi-dev \
	    openmpi-bin
DEB_UML   = user-mode-linux slirp kmod reiserfsprogs
DEB_LINT  = cppcheck shellcheck
DEB_ALL   = $(DEB_BUILD) $(DEB_TEST)
# What 'make deps' installs: everything, but for the demo only what it runs
# (a target-specific value reaches the deps prerequisite of demo).
DEB_NEED  = $(DEB_ALL)
demo: DEB_NEED = $(DEB_BUILD) $(DEB_FS) $(DEB_NFS) gnuplot-nox

SRCS    = $(filter-out $(PFM_OFF),$(sort $(wildcard src/*/*.c)))
OBJS    = $(SRCS:src/%.c=$(O)/src/%.o)
LIB     = $(O)/libld.a
BIN     = $(O)/largedir
UNIT_SRCS = $(filter-out $(PFM_OFF),$(sort $(wildcard tests/unit/test_*.c)))
UNITS   = $(UNIT_SRCS:tests/unit/%.c=$(O)/tests/%)
TEST_CFLAGS = $(shell pkg-config --cflags cmocka jansson 2>/dev/null)
TEST_LIBS   = $(shell pkg-config --libs cmocka jansson 2>/dev/null || \
	      echo -lcmocka -ljansson)

.PHONY: all check unit deps demo install uninstall clean lint bench plot \
	figures uml-kernel FORCE
.SECONDARY:

all: $(BIN)

$(BIN): $(O)/largedir.o $(BIN_MPI) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $(O)/largedir.o $(BIN_MPI) $(LIB) $(LDLIBS) \
	    $(BIN_LIBS) -lm

# The MPI build's ranks.o comes first, so the archive's is not linked.
$(O)/largedir-mpi: $(O)/largedir.o $(O)/mpi/ranks.o $(LIB)
	$(CC) $(LDFLAGS) -o $@ $(O)/largedir.o $(O)/mpi/ranks.o $(LIB) \
	    $(LDLIBS) $(MPI_LIBS) -lm

$(O)/mpi/ranks.o: src/engine/ranks.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -DLD_MPI $(MPI_CFLAGS) $(CFLAGS) -c -o $@ $<

$(LIB): $(OBJS)
	rm -f $@
	$(AR) rcs $@ $(OBJS)

# gitid.h is compared on every make and replaced only when the commit (or
# whether the tree is dirty) changed, so it rebuilds what includes it then
# and nothing otherwise.
$(O)/gitid.h: FORCE
	@mkdir -p $(@D)
	@printf '#define LD_GIT "%s"\n' '$(GIT_DESCRIBE)' >$@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi
$(O)/src/verbs/compare.o $(O)/src/run/meta.o $(O)/src/verbs/compareout.o \
    $(O)/src/report/report.o: $(O)/gitid.h
FORCE:

$(O)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(O)/tests/%.o: tests/unit/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(TEST_CFLAGS) $(CFLAGS) -DTEST_DATA='"tests/data"' \
	    -c -o $@ $<

$(O)/tests/%: $(O)/tests/%.o $(LIB)
	$(CC) $(LDFLAGS) $(WRAP) -o $@ $< $(FAKE) $(LIB) $(TEST_LIBS) \
	    $(LDLIBS) -lm

# The in-memory backend of the tests (tests/unit/fake.c), for the tests
# that run rounds on it and the backend conformance suite.
FAKE_USERS = $(O)/tests/test_backend $(O)/tests/test_round \
	     $(O)/tests/test_config $(O)/tests/test_overlap \
	     $(O)/tests/test_setup
$(FAKE_USERS): FAKE = $(O)/tests/fake.o
$(FAKE_USERS): $(O)/tests/fake.o

# What a test cannot stage (ENOSPC, EMFILE on create) it gets by wrapping.
$(O)/tests/test_workload: WRAP = -Wl,--wrap=openat
# A mount that brings something else than was asked for.
$(O)/tests/test_target $(O)/tests/test_target_nfs: WRAP = \
    -Wl,--wrap=mnt_context_mount -Wl,--wrap=mnt_context_get_status

# The stubs are tested in every build: perf_none.o comes ahead of the
# archive, so the linker never takes perf.o out of it.
$(O)/tests/test_perf_none: $(O)/tests/test_perf_none.o \
    $(O)/src/machine/perf_none.o $(LIB)
	$(CC) $(LDFLAGS) -o $@ $(O)/tests/test_perf_none.o \
	    $(O)/src/machine/perf_none.o $(LIB) $(TEST_LIBS) $(LDLIBS) -lm

# Installs what is missing when run as root, else prints the exact command.
deps:
	@missing=; for p in $(DEB_NEED); do \
	    dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
	    grep -q '^install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ]; then \
	    echo "deps: installing$$missing"; \
	    apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	else \
	    echo "deps: missing Debian packages; run as root:" >&2; \
	    echo "  apt-get install -y$$missing" >&2; exit 1; \
	fi

unit: $(UNITS)

check: deps
	@$(MAKE) --no-print-directory all unit $(MPI_BIN)
	@O=$(O) LARGEDIR=$(BIN) sh tests/run $(UNITS)

# A real benchmark of about two minutes on a temporary directory of the
# current filesystem (the targets issue will replace it with loop images).
DEMO_BUDGET ?= 110s
demo: deps
	@$(MAKE) --no-print-directory all
	@sh bench/demo.sh $(BIN) $(DEMO_BUDGET)

bench: all
	@sh bench/run.sh $(BIN)

# The figures the READMEs and NOTES quote about published runs, written
# from their data (tests/figures.py; t_published checks them).
figures:
	@python3 tests/figures.py update README.md README.de.md results/*/NOTES

# The graphs of the results directories RESULTS, drawn again (default:
# every published run in results/): make plot RESULTS=results/RUN.
RESULTS ?= $(patsubst %/,%,$(wildcard results/*/))
plot: all
	@for d in $(RESULTS); do $(BIN) plot "$$d" || exit 1; done

# A User-Mode Linux kernel for kernel = uml targets, built from Debian's
# linux-source-$(KVERSION) with tests/uml/uml.config and tests/uml/*.patch
# into a cache outside the tree (about 9 minutes; a publish step, and
# .ci/run's on a CPU with AMX, where Debian's kernel cannot run):
# make uml-kernel KVERSION=6.12, then uml = the path it prints.
KVERSION ?= 6.12
uml-kernel:
	@sh tests/uml/build-kernel.sh $(KVERSION)

lint: all
	@$(MAKE) --no-print-directory deps DEB_NEED="$(DEB_LINT) mandoc"
	cppcheck --quiet --std=c11 --enable=warning,portability -Isrc -I$(O) \
	    -D_GNU_SOURCE largedir.c src
	shellcheck -s sh tests/run tests/run1 tests/*.sh tests/sh/*.sh tests/uml/*.sh \
	    bench/*.sh .ci/run
	mandoc -Tlint -Wwarning largedir.1
	LARGEDIR=$(BIN) sh tests/sh/t_layers.sh

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 \
	    $(DESTDIR)$(DATADIR)/plot $(DESTDIR)$(DATADIR)/configs
	install -m 0755 $(BIN) $(DESTDIR)$(BINDIR)/largedir
	install -m 0644 largedir.1 $(DESTDIR)$(MANDIR)/man1/largedir.1
	for f in plot/* configs/*; do \
	    [ -f "$$f" ] && install -m 0644 "$$f" $(DESTDIR)$(DATADIR)/$$f; \
	done; true

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/largedir $(DESTDIR)$(MANDIR)/man1/largedir.1
	rm -rf $(DESTDIR)$(DATADIR)

clean:
	rm -rf build build-asan

-include $(OBJS:.o=.d) $(O)/largedir.d $(UNITS:=.d) $(O)/tests/fake.d
-include $(O)/src/machine/perf_none.d
