import './files.js';
import './page.js';
