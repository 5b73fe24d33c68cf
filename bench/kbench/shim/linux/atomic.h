/* SPDX-License-Identifier: GPL-2.0 */
/* User-space stand-in, see ../shim.h. */
#include "../shim.h"
