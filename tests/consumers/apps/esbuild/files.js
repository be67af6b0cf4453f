// Imported before the widgets: where the package's files are served from.
import { locateFiles } from 'embeddings-and-position';

locateFiles('/embeddings-and-position/');
