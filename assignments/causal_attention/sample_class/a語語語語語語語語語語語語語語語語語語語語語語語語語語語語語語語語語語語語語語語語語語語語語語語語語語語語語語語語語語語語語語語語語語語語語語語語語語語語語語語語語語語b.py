# Sample submission: a name of 251 bytes in UTF-8; with a suffix it would pass the 255 a file
# name may hold, so the kit cuts it (and adds a digest) wherever it names a file.
import numpy as np
