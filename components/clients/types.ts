/** Form B shape of a saved client (lib/serializers/clients.ts). */
export type SavedClient = {
  id: string;
  freelancerWallet: string;
  name: string;
  email: string;
  company: string | null;
  address: string | null;
  isFavorite: boolean;
  createdAt: string;
  updatedAt: string;
};
