/* version.h - the build's version string (generated into version.c at build time). */
#ifndef TINYMM_VERSION_H
#define TINYMM_VERSION_H
extern const char tinymm_version[];
#endif
