/* SPDX-License-Identifier: MIT */
#ifndef SWAPREPLAY_VERSION_H
#define SWAPREPLAY_VERSION_H

#define SR_VERSION_MAJOR 0
#define SR_VERSION_MINOR 1
#define SR_VERSION_PATCH 0
#define SR_VERSION_STRING "0.1.0"

#endif
